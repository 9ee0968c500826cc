// Load shedding over real HTTP: with the gateway's in-flight cap reached (executes held by a slow
// provider), a new request of any caller is answered 503 OVERLOADED with Retry-After at once
// instead of queueing; so is one arriving while the event loop lags; probes and /metrics are
// always answered, and so are catalog reads the gateway has in memory (answering one costs no more
// than refusing it); the gateway serves again as soon as it has room.
import { waitFor } from "@agentic/testing";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { emailBody } from "./execute-helpers";
import { metricSum, newKey } from "./limits-helpers";
import { validateResponse } from "./validate-response";

const SHED_AT = 2;

/**
 * Keeps this process's event loop (the gateway's, in these tests) busy for `totalMs` in back-to-back
 * chunks of `chunkMs`, yielding to I/O between them: a stand-in for a CPU-saturated gateway, where
 * every turn of the loop is late.
 */
async function saturateEventLoop(totalMs: number, chunkMs: number): Promise<void> {
  const end = performance.now() + totalMs;
  while (performance.now() < end) {
    const until = Math.min(end, performance.now() + chunkMs);
    while (performance.now() < until);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function expectOverloaded(res: Response, method: string, path: string): Promise<void> {
  const body = await res.json();
  expect(res.status).toBe(503);
  expect(body).toMatchObject({ success: false, code: "OVERLOADED", hint: expect.stringContaining("Retry-After") });
  expect(validateResponse(method, path, 503, body)).toEqual([]);
  expect(["1", "2", "3"]).toContain(res.headers.get("retry-after"));
}

/**
 * Probes and /metrics are never shed. With `backendsLagging`, the backends share the lagging event
 * loop (they run in this test's process), so /readyz may find them late: it must answer, not shed.
 */
async function expectProbesServed(origin: string, backendsLagging = false): Promise<void> {
  for (const path of ["/healthz", "/readyz", "/metrics"]) {
    const res = await fetch(origin + path);
    const body = await res.text();
    if (backendsLagging && path === "/readyz") expect({ path, body }).not.toEqual({ path, body: expect.stringContaining("OVERLOADED") });
    else expect({ path, status: res.status }).toEqual({ path, status: 200 });
  }
}

describe("load shedding: in-flight cap", () => {
  let sys: BackedSystem;

  beforeAll(async () => {
    sys = await startBackedSystem({ limits: { SHED_MAX_IN_FLIGHT: SHED_AT } });
  });
  afterAll(() => sys?.stop());

  it("answers 503 OVERLOADED at once while the gateway has its most requests in flight, never to probes, and serves again after", async () => {
    const [heavy, light] = await Promise.all([newKey(sys, 1_000), newKey(sys, 1_000)]);
    sys.sandbox.control.setFault({ provider: "resend", mode: "slow", delayMs: 1_500, count: SHED_AT });
    const held = Array.from({ length: SHED_AT }, () =>
      sys.authed("/domains/email/capabilities/send/execute", {
        key: heavy.key,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(emailBody({ provider: "resend" })),
      }),
    );
    await waitFor(() => sys.sandbox.control.calls("resend").length === SHED_AT, { what: "the held executes to reach the provider" });

    // Any caller, any route: shed before any work, in well under the time the held requests take. (A catalog
    // page not yet in the gateway's memory: /domains is, read ahead for readiness, and answers from memory are never shed.)
    const started = performance.now();
    await expectOverloaded(await fetch(`${sys.gw.baseUrl}/domains/email/capabilities`), "get", "/domains/{domainKey}/capabilities");
    expect(performance.now() - started).toBeLessThan(1_000); // the held requests take 1.5 s
    await expectOverloaded(await sys.authed("/wallet", { key: light.key }), "get", "/wallet");
    const recommend = await sys.authed("/domains/email/capabilities/send/recommend", {
      key: light.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    await expectOverloaded(recommend, "post", "/domains/{domainKey}/capabilities/{capabilityId}/recommend");
    await expectProbesServed(sys.gw.origin);
    expect(await metricSum(sys.gw.origin, "gateway_requests_in_flight")).toBe(SHED_AT);
    expect(await metricSum(sys.gw.origin, "gateway_requests_shed_total", { reason: "in_flight" })).toBeGreaterThanOrEqual(3);

    expect((await Promise.all(held)).map((res) => res.status)).toEqual(Array(SHED_AT).fill(200));
    expect((await fetch(`${sys.gw.baseUrl}/domains`)).status).toBe(200);
    expect((await sys.authed("/wallet", { key: light.key })).status).toBe(200);
  });
});

describe("load shedding: event-loop delay", () => {
  let sys: BackedSystem;

  beforeAll(async () => {
    sys = await startBackedSystem({ limits: { SHED_EVENT_LOOP_DELAY_MS: 100 } });
  });
  afterAll(() => sys?.stop());

  it("answers 503 OVERLOADED while the event loop lags, never to probes or cached reads, and serves again once it keeps up", async () => {
    const domains = `${sys.gw.baseUrl}/domains`;
    expect((await fetch(domains)).status).toBe(200); // now in the gateway's memory
    // The delay is judged over windows of 500 ms: once a whole window has lagged, requests are shed.
    let saturating = true;
    const saturated = saturateEventLoop(2_000, 150).then(() => (saturating = false));
    let shed: Response | undefined;
    while (!shed && saturating) {
      const res = await sys.authed("/wallet");
      if (res.status === 503) shed = res;
      else expect(res.status).toBe(200);
    }
    expect(shed).toBeDefined();
    await expectOverloaded(shed!, "get", "/wallet");
    expect((await fetch(domains)).status).toBe(200);
    await expectProbesServed(sys.gw.origin, true);
    await saturated;
    expect(await metricSum(sys.gw.origin, "gateway_requests_shed_total", { reason: "event_loop" })).toBeGreaterThanOrEqual(1);
    // The next window without a stall lifts it.
    await waitFor(async () => (await sys.authed("/wallet")).status === 200, { what: "the gateway to serve again" });
  });
});
