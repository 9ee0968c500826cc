// Per-key limits set on the ledger's key record (SetApiKeyLimits, what `npm run keys -- limits` calls)
// over real HTTP: a key given a low rate gets 429 RATE_LIMITED where a key without limits of its own
// is served at the configured defaults, and a change of limits reaches the gateway when its API-key
// cache asks the ledger about the key again.
// Runs in process, and against Redis too when RATE_LIMIT_REDIS_URL (or REDIS_URL) is set.
import { waitFor } from "@agentic/testing";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { LIMIT_STORES, newKey, storeSettings } from "./limits-helpers";

const DEFAULT_RPS = 100;
const DEFAULT_POLICY = `"rate";q=${DEFAULT_RPS};w=1, "in-flight";q=100;qu="concurrent-requests"`;
const LOW_POLICY = '"rate";q=1;w=1, "in-flight";q=100;qu="concurrent-requests"';
// Short, so the test sees a change arrive without waiting out the production 5 s.
const AUTH_CACHE_TTL_MS = 300;

describe.each(LIMIT_STORES)("per-key limits from the ledger's key records (%s)", (_store, redisUrl) => {
  let sys: BackedSystem;

  beforeAll(async () => {
    sys = await startBackedSystem({
      limits: { RATE_LIMIT_RPS: DEFAULT_RPS, RATE_LIMIT_BURST: DEFAULT_RPS, RATE_LIMIT_MAX_IN_FLIGHT: 100, ...storeSettings(redisUrl) },
      auth: { ttlMs: AUTH_CACHE_TTL_MS },
    });
  });
  afterAll(() => sys?.stop());

  const wallet = async (key: string) => {
    const res = await sys.authed("/wallet", { key });
    return {
      status: res.status,
      policy: res.headers.get("ratelimit-policy"),
      body: (await res.json()) as { code?: string; error?: string },
    };
  };

  /** The statuses of `n` GET /wallet sent one after another as `key`. */
  async function statuses(key: string, n: number): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await wallet(key)).status);
    return out;
  }

  it("refuses a key given a low rate with 429 while a key without limits of its own gets the defaults", async () => {
    const [limited, free] = await Promise.all([newKey(sys), newKey(sys)]);
    // Set before the key's first request: the gateway has nothing cached for it yet.
    await sys.ledger.client.setApiKeyLimits({ keyId: limited.keyId, limits: { requestsPerSecond: 1, burst: 1 } });

    // 10 requests in a row: at most a couple of one-second windows, so at most 2 fit a rate of 1.
    const limitedStatuses = await statuses(limited.key, 10);
    expect(limitedStatuses.filter((s) => s === 200).length).toBeLessThanOrEqual(2);
    expect(limitedStatuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(8);
    const refused = await wallet(limited.key);
    expect(refused).toMatchObject({
      status: 429,
      policy: LOW_POLICY,
      body: { code: "RATE_LIMITED", error: "This API key sent more than 1 requests a second." },
    });

    expect(await statuses(free.key, 10)).toEqual(Array(10).fill(200));
    expect((await wallet(free.key)).policy).toBe(DEFAULT_POLICY);
  });

  it("applies a change of a key's limits once the gateway's cached answer for the key expires", async () => {
    const key = await newKey(sys);
    expect((await wallet(key.key)).policy).toBe(DEFAULT_POLICY); // now cached without limits of its own

    await sys.ledger.client.setApiKeyLimits({ keyId: key.keyId, limits: { requestsPerSecond: 1, burst: 1 } });
    await waitFor(async () => (await wallet(key.key)).policy === LOW_POLICY, {
      what: "the new limits to reach the gateway",
      intervalMs: 50,
    });

    // Cleared: the defaults again, after the next refresh.
    await sys.ledger.client.setApiKeyLimits({ keyId: key.keyId, limits: {} });
    await waitFor(async () => (await wallet(key.key)).policy === DEFAULT_POLICY, {
      what: "the cleared limits to reach the gateway",
      intervalMs: 50,
    });
    expect(await statuses(key.key, 10)).toEqual(Array(10).fill(200));
  });
});
