// Vendor quotas shared by every user of a route (a plan's N requests per minute, day or month):
// counters in NATS KV, so every executor replica spends the same quota and every router replica
// reads the same use. The executor takes one request per attempt (takeVendorQuota); the router
// reads what is left (readVendorQuota) to rank a route running out below its alternatives.
//
// One bucket per window length (vendor_quota_minute, _day, _month), each keeping a counter about
// two windows long, so old windows leave by age and no byte limit can drop a live counter. Windows
// are calendar windows in UTC (a vendor's month may start on its billing day: the counter resets at
// the 1st, which errs towards the vendor refusing late in a cycle, and the ranking sees it coming).
// Keys: `<routeKey>.<window>` (everyone) and `<routeKey>.<window>.u<sha-256 of the user id, 32 hex>`.
// Increments use the KV revision (compare-and-set), retried on a lost race, so no request is counted
// twice and none is lost between replicas.
import { createHash } from "node:crypto";
import { DiscardPolicy, StorageType, type KV, type NatsConnection } from "nats";
import { isLostRevisionRace } from "./kv-revision";

export type QuotaWindow = "minute" | "day" | "month";
export const QUOTA_WINDOWS: readonly QuotaWindow[] = ["minute", "day", "month"];

/** A route's vendor quota, as the catalog gives it (Route.vendor_quota). */
export interface VendorQuotaTerms {
  /** Requests the vendor plan allows per window, for every user together. */
  requests: number;
  window: QuotaWindow;
  /** Requests one user may spend per window. */
  perUserRequests: number;
}

/** What is spent of a route's quota in the current window. */
export interface VendorQuotaUse {
  usedTotal: number;
  usedByUser: number;
  /** When the window ends and the counters start again, ms since the epoch. */
  resetAtMs: number;
}

export type VendorQuotaTake = { ok: true } | { ok: false; scope: "user" | "route"; resetAtMs: number };

/** The KV buckets, one per window length. */
export type VendorQuotaBuckets = Readonly<Record<QuotaWindow, KV>>;

const BUCKET_TTL_MS: Readonly<Record<QuotaWindow, number>> = {
  minute: 2 * 60_000,
  day: 2 * 86_400_000,
  month: 32 * 86_400_000,
};
const MIB = 1024 * 1024;
/**
 * Most bytes each bucket holds (a counter is about 150 bytes: 64 MiB is ~400,000 user-route counters
 * a month). When full the oldest values go first: a route's shared counter is written at every take,
 * so what goes is the counter of a user who has not called for longest (its share starts again).
 */
export const VENDOR_QUOTA_BUCKET_MAX_BYTES: Readonly<Record<QuotaWindow, number>> = {
  minute: 8 * MIB,
  day: 32 * MIB,
  month: 64 * MIB,
};

/** The bucket name of a window length. */
export function vendorQuotaBucketName(window: QuotaWindow): string {
  return `vendor_quota_${window}`;
}

/** The window holding `nowMs`: its id (a key token) and when it ends. */
export function quotaWindowAt(window: QuotaWindow, nowMs: number): { id: string; resetAtMs: number } {
  const d = new Date(nowMs);
  const y = d.getUTCFullYear();
  const mo = d.getUTCMonth();
  const day = d.getUTCDate();
  const iso = d.toISOString();
  if (window === "month") return { id: iso.slice(0, 7), resetAtMs: Date.UTC(y, mo + 1, 1) };
  if (window === "day") return { id: iso.slice(0, 10), resetAtMs: Date.UTC(y, mo, day + 1) };
  return { id: iso.slice(0, 16).replace(":", "-"), resetAtMs: Date.UTC(y, mo, day, d.getUTCHours(), d.getUTCMinutes() + 1) };
}

function keysOf(routeKey: string, userId: string, windowId: string): { total: string; user: string } {
  const user = createHash("sha256").update(userId).digest("hex").slice(0, 32);
  return { total: `${routeKey}.${windowId}`, user: `${routeKey}.${windowId}.u${user}` };
}

/**
 * Opens (creating when missing) the three buckets; a replica starting alongside binds the winner's.
 * `ensureConfig` (the executor, which writes them): an existing bucket is brought to the lifetime, byte
 * limit and discard policy above (KV buckets refuse writes when full unless told to drop the oldest).
 */
export async function openVendorQuotaBuckets(
  nc: NatsConnection,
  opts: { replicas: number; ensureConfig?: boolean },
): Promise<VendorQuotaBuckets> {
  const js = nc.jetstream();
  const open = async (window: QuotaWindow) => {
    const maxAge = BUCKET_TTL_MS[window];
    const maxBytes = VENDOR_QUOTA_BUCKET_MAX_BYTES[window];
    const options = { ttl: maxAge, history: 1, replicas: opts.replicas, max_bytes: maxBytes, storage: StorageType.File };
    const name = vendorQuotaBucketName(window);
    const kv = await js.views.kv(name, options).catch(() => js.views.kv(name, options));
    if (!opts.ensureConfig) return kv;
    const { config } = (await kv.status()).streamInfo;
    if (config.discard !== DiscardPolicy.Old || config.max_bytes !== maxBytes || config.max_age !== maxAge * 1_000_000) {
      const jsm = await nc.jetstreamManager();
      await jsm.streams.update(config.name, { ...config, discard: DiscardPolicy.Old, max_bytes: maxBytes, max_age: maxAge * 1_000_000 });
    }
    return kv;
  };
  const [minute, day, month] = await Promise.all(QUOTA_WINDOWS.map(open));
  return { minute: minute!, day: day!, month: month! };
}

/** Compare-and-set rounds before giving up: each round one racer wins, so this bounds the racers on one key served in turn. */
const MAX_ROUNDS = 100;

async function count(kv: KV, key: string): Promise<{ value: number; revision: number }> {
  const entry = await kv.get(key);
  if (!entry || entry.operation !== "PUT") return { value: 0, revision: 0 };
  return { value: Number(entry.string()) || 0, revision: entry.revision };
}

/** Adds `delta` to `key` unless that would pass `limit`; false when it would. Compare-and-set, retried on a lost race. */
async function add(kv: KV, key: string, delta: number, limit: number): Promise<boolean> {
  for (let round = 0; ; round++) {
    const { value, revision } = await count(kv, key);
    if (delta > 0 && value + delta > limit) return false;
    const next = String(Math.max(0, value + delta));
    try {
      if (revision === 0) await kv.create(key, next);
      else await kv.update(key, next, revision);
      return true;
    } catch (err) {
      // Another writer was first: read again (with a short random pause once contended, so racers spread out).
      // Anything else (NATS down) is the caller's to handle.
      if (round >= MAX_ROUNDS || !isLostRevisionRace(err)) throw err;
      if (round >= 2) await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
    }
  }
}

/** What is spent of `terms` on `routeKey` in the window of `nowMs`, by everyone and by `userId`. */
export async function readVendorQuota(
  buckets: VendorQuotaBuckets,
  routeKey: string,
  userId: string,
  terms: VendorQuotaTerms,
  nowMs: number,
): Promise<VendorQuotaUse> {
  const window = quotaWindowAt(terms.window, nowMs);
  const keys = keysOf(routeKey, userId, window.id);
  const kv = buckets[terms.window];
  const [total, user] = await Promise.all([count(kv, keys.total), count(kv, keys.user)]);
  return { usedTotal: total.value, usedByUser: user.value, resetAtMs: window.resetAtMs };
}

/**
 * Takes one request of `terms` on `routeKey` for `userId`: refused when the user's share of this
 * window is spent (`user`), or the vendor's whole quota is (`route`; the user's unit is given back).
 */
export async function takeVendorQuota(
  buckets: VendorQuotaBuckets,
  routeKey: string,
  userId: string,
  terms: VendorQuotaTerms,
  nowMs: number,
): Promise<VendorQuotaTake> {
  const window = quotaWindowAt(terms.window, nowMs);
  const keys = keysOf(routeKey, userId, window.id);
  const kv = buckets[terms.window];
  // The user's share first: a user at full rate past its share never touches the shared counter.
  if (!(await add(kv, keys.user, 1, terms.perUserRequests))) return { ok: false, scope: "user", resetAtMs: window.resetAtMs };
  if (await add(kv, keys.total, 1, terms.requests)) return { ok: true };
  await add(kv, keys.user, -1, Infinity);
  return { ok: false, scope: "route", resetAtMs: window.resetAtMs };
}
