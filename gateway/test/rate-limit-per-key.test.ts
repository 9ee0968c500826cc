// The per-key request rate over real HTTP: a key over its rate gets 429 RATE_LIMITED with
// Retry-After and the RateLimit headers while other keys go on; a key's limits come from the
// KeyLimitsSource; requests without a valid key are limited per client IP, and once over that
// budget are refused before their key reaches the ledger; probes are never limited.
// Runs in process, and against Redis too when RATE_LIMIT_REDIS_URL (or REDIS_URL) is set:
//   RATE_LIMIT_REDIS_URL=redis://127.0.0.1:6379 npx jest gateway/test/rate-limit-per-key
import type { KeyLimits } from "../src/limits/key-limits";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { LIMIT_STORES, metricSum, newKey, storeSettings, type TestKey } from "./limits-helpers";
import { validateResponse } from "./validate-response";

const DEFAULTS: KeyLimits = { requestsPerSecond: 1, burst: 3, maxInFlight: 8 };
const UNAUTHENTICATED_PER_MIN = 5;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

describe.each(LIMIT_STORES)("per-key rate limit (%s)", (_store, redisUrl) => {
  let sys: BackedSystem;
  const overrides = new Map<string, KeyLimits>();

  beforeAll(async () => {
    sys = await startBackedSystem({
      limits: {
        RATE_LIMIT_RPS: DEFAULTS.requestsPerSecond,
        RATE_LIMIT_BURST: DEFAULTS.burst,
        RATE_LIMIT_MAX_IN_FLIGHT: DEFAULTS.maxInFlight,
        RATE_LIMIT_UNAUTHENTICATED_PER_MIN: UNAUTHENTICATED_PER_MIN,
        ...storeSettings(redisUrl),
      },
      // What the ledger's key records will give: the configured defaults unless a key has its own.
      keyLimits: { limitsFor: ({ keyId }) => overrides.get(keyId) ?? DEFAULTS },
    });
  });
  afterAll(() => sys?.stop());

  async function wallet(key: string): Promise<Answer> {
    const res = await sys.authed("/wallet", { key });
    return { status: res.status, headers: res.headers, body: await res.json() };
  }

  /** Sends GET /wallet as `key` one after another until a 429 (at most `max` times); the 200s before it and the 429. */
  async function untilRefused(key: string, max = 20): Promise<{ served: number; refused: Answer | undefined }> {
    for (let served = 0; served < max; served++) {
      const answer = await wallet(key);
      if (answer.status === 429) return { served, refused: answer };
      expect(answer.status).toBe(200);
    }
    return { served: max, refused: undefined };
  }

  let abusive: TestKey;
  let other: TestKey;

  it("answers 429 RATE_LIMITED with Retry-After and the RateLimit headers to a key over its rate, and the other keys go on", async () => {
    [abusive, other] = await Promise.all([newKey(sys), newKey(sys)]);
    const { served, refused } = await untilRefused(abusive.key);
    // The burst (3) is served; 20 requests in well under the 10 s burst window are not.
    expect(served).toBeGreaterThanOrEqual(DEFAULTS.burst);
    expect(refused).toBeDefined();
    const { status, headers, body } = refused!;
    expect(status).toBe(429);
    expect(body).toMatchObject({
      success: false,
      code: "RATE_LIMITED",
      error: "This API key sent more than 1 requests a second (bursts of up to 3).",
      hint: expect.stringContaining("Retry-After"),
    });
    expect(validateResponse("get", "/wallet", 429, body)).toEqual([]);
    const retryAfter = Number(headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 10).toBe(true);
    expect(headers.get("ratelimit-policy")).toBe('"rate";q=1;w=1, "burst";q=2;w=10, "in-flight";q=8;qu="concurrent-requests"');
    expect(headers.get("ratelimit")).toMatch(/^"rate";r=0;t=([1-9]|10)$/);

    // Another key has counts of its own: its first request is served, and says what is left.
    const first = await wallet(other.key);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe(headers.get("ratelimit-policy"));
    expect(first.headers.get("ratelimit")).toBe('"rate";r=0;t=1, "in-flight";r=7');
  });

  it("takes each key's limits from the KeyLimitsSource", async () => {
    const roomy = await newKey(sys);
    overrides.set(roomy.keyId, { requestsPerSecond: 50, burst: 50, maxInFlight: 4 });
    const { served, refused } = await untilRefused(roomy.key, 12);
    expect({ served, refused }).toEqual({ served: 12, refused: undefined });
    const answer = await wallet(roomy.key);
    expect(answer.headers.get("ratelimit-policy")).toBe('"rate";q=50;w=1, "in-flight";q=4;qu="concurrent-requests"');
    expect(answer.headers.get("ratelimit")).toMatch(/^"rate";r=\d+;t=1, "in-flight";r=3$/);
  });

  it("limits requests without a valid key per client IP, refusing them before the ledger once over budget; known keys still pass", async () => {
    const lookups = () => metricSum(sys.gw.origin, "rpc_server_duration_seconds_count", { rpc_method: "AuthenticateApiKey" });
    let unauthorized = 0;
    let refused: Answer | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const answer = await wallet(`aak_madeUp${i}x${"0".repeat(30)}`);
      if (answer.status === 429) refused = answer;
      else {
        expect(answer.status).toBe(401);
        unauthorized++;
      }
    }
    // The budget's 401s (and at most a couple more while the count is on its way to the store), then 429s.
    expect(unauthorized).toBeGreaterThanOrEqual(UNAUTHENTICATED_PER_MIN);
    expect(unauthorized).toBeLessThanOrEqual(UNAUTHENTICATED_PER_MIN + 3);
    expect(refused!.body).toMatchObject({
      success: false,
      code: "RATE_LIMITED",
      error: expect.stringContaining("without a valid API key"),
    });
    expect(validateResponse("get", "/wallet", 429, refused!.body)).toEqual([]);
    expect(refused!.headers.get("ratelimit-policy")).toBe(`"unauthenticated";q=${UNAUTHENTICATED_PER_MIN};w=60`);
    expect(refused!.headers.get("ratelimit")).toMatch(/^"unauthenticated";r=0;t=\d+$/);
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    // More made-up keys (and no key at all) are refused without a single lookup at the ledger.
    const before = await lookups();
    expect(before).toBeGreaterThanOrEqual(UNAUTHENTICATED_PER_MIN); // the budget's keys were looked up
    for (let i = 0; i < 5; i++) expect((await wallet(`aak_another${i}y${"1".repeat(30)}`)).status).toBe(429);
    expect((await fetch(`${sys.gw.baseUrl}/wallet`)).status).toBe(429);
    expect(await lookups()).toBe(before);

    // A key that worked lately from anywhere is not locked out with the flood.
    expect((await wallet(other.key)).status).not.toBe(429);
  });

  it("never limits the probes or /metrics, and counts the refusals by reason", async () => {
    for (const path of ["/healthz", "/readyz", "/metrics"])
      expect({ path, status: (await fetch(sys.gw.origin + path)).status }).toEqual({ path, status: 200 });
    expect(await metricSum(sys.gw.origin, "gateway_requests_limited_total", { reason: "rate" })).toBeGreaterThan(0);
    expect(await metricSum(sys.gw.origin, "gateway_requests_limited_total", { reason: "unauthenticated" })).toBeGreaterThan(0);
  });
});
