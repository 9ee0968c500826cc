// The per-key cap of requests in flight over real HTTP: while a key's executes are held in flight by
// a slow provider (the sandbox's `slow` fault), its next request gets 429 CONCURRENCY_LIMITED at
// once, other keys are served, and the key is served again as soon as its requests finish.
// Runs in process, and against Redis too when RATE_LIMIT_REDIS_URL (or REDIS_URL) is set.
import { waitFor } from "@agentic/testing";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { emailBody } from "./execute-helpers";
import { LIMIT_STORES, metricSum, newKey, storeSettings } from "./limits-helpers";
import { validateResponse } from "./validate-response";

const MAX_IN_FLIGHT = 2;

describe.each(LIMIT_STORES)("per-key in-flight cap (%s)", (_store, redisUrl) => {
  let sys: BackedSystem;

  beforeAll(async () => {
    sys = await startBackedSystem({
      limits: { RATE_LIMIT_RPS: 1_000, RATE_LIMIT_BURST: 1_000, RATE_LIMIT_MAX_IN_FLIGHT: MAX_IN_FLIGHT, ...storeSettings(redisUrl) },
    });
  });
  afterAll(() => sys?.stop());

  /** POST execute (email.send on resend) as `key`; the answer with its body read. */
  async function execute(key: string): Promise<{ status: number; headers: Headers; body: any }> {
    const res = await sys.authed("/domains/email/capabilities/send/execute", {
      key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(emailBody({ provider: "resend" })),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  }

  it("answers 429 CONCURRENCY_LIMITED to the key at its cap only, and serves it again once its requests are done", async () => {
    const [abusive, other] = await Promise.all([newKey(sys, 1_000), newKey(sys, 1_000)]);
    sys.sandbox.control.reset();
    // The next MAX_IN_FLIGHT calls to resend take 1.5 s: the key's executes stay in flight that long.
    sys.sandbox.control.setFault({ provider: "resend", mode: "slow", delayMs: 1_500, count: MAX_IN_FLIGHT });
    const held = Array.from({ length: MAX_IN_FLIGHT }, () => execute(abusive.key));
    await waitFor(() => sys.sandbox.control.calls("resend").length === MAX_IN_FLIGHT, { what: "the held executes to reach the provider" });

    const started = performance.now();
    const refused = await execute(abusive.key);
    const { body } = refused;
    expect(performance.now() - started).toBeLessThan(500); // refused at once, not queued behind the held ones
    expect(refused.status).toBe(429);
    expect(body).toMatchObject({
      success: false,
      code: "CONCURRENCY_LIMITED",
      error: `This API key already has ${MAX_IN_FLIGHT} requests in flight, its limit.`,
    });
    expect(validateResponse("post", "/domains/{domainKey}/capabilities/{capabilityId}/execute", 429, body)).toEqual([]);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("ratelimit-policy")).toContain(`"in-flight";q=${MAX_IN_FLIGHT};qu="concurrent-requests"`);
    expect(refused.headers.get("ratelimit")).toMatch(/"in-flight";r=0$/);
    // Nothing of the refused request reached the provider.
    expect(sys.sandbox.control.calls("resend")).toHaveLength(MAX_IN_FLIGHT);

    // Another key is served meanwhile, on both a read and an execute.
    expect(((await (await sys.authed("/wallet", { key: other.key })).json()) as { balanceCredits: number }).balanceCredits).toBe(1_000);
    const otherExecute = await execute(other.key);
    expect(otherExecute.status).toBe(200);
    expect(otherExecute.headers.get("ratelimit")).toMatch(new RegExp(`"in-flight";r=${MAX_IN_FLIGHT - 1}$`));

    // The held requests finish normally; their slots come back.
    expect((await Promise.all(held)).map((res) => res.status)).toEqual(Array(MAX_IN_FLIGHT).fill(200));
    const again = await execute(abusive.key);
    expect(again.status).toBe(200);
    expect(await metricSum(sys.gw.origin, "gateway_requests_limited_total", { reason: "concurrency" })).toBeGreaterThan(0);
  });
});
