// Shared by the limit tests: which stores to run against, a store's settings, new API keys with
// their key ids, and reading counters off /metrics.
import { randomBase62 } from "@agentic/platform";
import type { BackedSystem } from "./backed-system";

/** Redis of the developer or CI, when given; the suites then run against it as well as in process. */
const redisUrl = process.env.RATE_LIMIT_REDIS_URL ?? process.env.REDIS_URL;

/** [name, RATE_LIMIT_REDIS_URL or undefined] of every store the limit suites run against. */
export const LIMIT_STORES: Array<[string, string | undefined]> = [
  ["in process", undefined],
  ...(redisUrl ? [["Redis", redisUrl] as [string, string]] : []),
];

/** Gateway settings of a store: a Redis prefix of its own per suite, so runs never share counts. */
export function storeSettings(url: string | undefined): { RATE_LIMIT_REDIS_URL?: string; RATE_LIMIT_REDIS_PREFIX?: string } {
  return url ? { RATE_LIMIT_REDIS_URL: url, RATE_LIMIT_REDIS_PREFIX: `agentic-test:${randomBase62(12)}:` } : {};
}

export interface TestKey {
  userId: string;
  keyId: string;
  key: string;
}

let keys = 0;

/** A new API key of a new user, with `credits` in the wallet. */
export async function newKey(sys: BackedSystem, credits = 0): Promise<TestKey> {
  const userId = `limits-user-${process.pid}-${++keys}`;
  const created = await sys.ledger.client.createApiKey({ userId, name: "limit tests" });
  if (credits > 0) await sys.ledger.client.grantCredits({ grantId: `grant-${userId}`, userId, amountCredits: credits, reason: "test" });
  return { userId, keyId: created.key!.keyId, key: created.apiKey };
}

/** Sum of the samples of `name` on the gateway's /metrics whose labels include every `labels` pair. */
export async function metricSum(origin: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let sum = 0;
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    if (wanted.every((pair) => (match[2] ?? "").includes(pair))) sum += Number(match[3]);
  }
  return sum;
}
