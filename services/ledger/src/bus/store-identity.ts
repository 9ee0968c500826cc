// Store-identity guard: every ledger on one NATS must write to one shared store. The settlement
// consumer is shared by all ledgers, so with two separate stores a capture lands on whichever ledger
// pulls it, and that one may not have the hold. Each ledger therefore announces its store id in the
// JetStream KV bucket `ledger_store`, key `identity`, and keeps it fresh while it runs; the bucket's
// max_age is the TTL, so the entry of a ledger that died without stopping expires on its own.
// A ledger refuses to start while a live entry names another store. The first announcement is a
// kv.create (expected last revision 0), so of two ledgers starting at once exactly one wins.
import { hostname } from "node:os";
import type { KV, KvEntry, NatsConnection } from "nats";
import type { Logger } from "@agentic/platform";
import type { LedgerMetrics } from "../domain/ports";

export const STORE_IDENTITY_BUCKET = "ledger_store";
export const STORE_IDENTITY_KEY = "identity";
/** Byte limit of the bucket: one small announcement (history 1) needs a few hundred bytes; every stream and bucket has a limit. */
export const STORE_IDENTITY_MAX_BYTES = 1024 ** 2;
/** Life of an announcement not refreshed (bucket max_age): how long a crashed ledger blocks another store. */
export const DEFAULT_STORE_IDENTITY_TTL_MS = 30_000;
/** Refresh period: a third of the TTL, so two missed refreshes still keep the entry alive. */
export const DEFAULT_STORE_IDENTITY_REFRESH_MS = 10_000;

/** What a ledger writes under `identity`. */
interface Announcement {
  storeId: string;
  /** host/pid of the ledger that wrote it last, for the operator reading an error. */
  holder: string;
  at: string;
}

export class StoreIdentityConflictError extends Error {
  constructor(
    readonly ourStoreId: string,
    readonly theirs: Announcement,
    ttlMs: number,
  ) {
    super(
      `another ledger runs on another store: NATS bucket ${STORE_IDENTITY_BUCKET}/${STORE_IDENTITY_KEY} announces store ${theirs.storeId} ` +
        `(written by ${theirs.holder} at ${theirs.at}), this ledger's store is ${ourStoreId}. Ledgers sharing one NATS must share one store, ` +
        `or captures land on a ledger without their hold. Fix: point every ledger at the same store (the same MONGODB_URI and MONGODB_DB, ` +
        `or the same LEDGER_SQLITE_PATH on one machine; a store in memory (LEDGER_STORE=memory) cannot be shared between processes), or stop the other ledger and start this one ` +
        `when its entry is gone (at once after a clean stop, at most ${Math.ceil(ttlMs / 1000)} s after it died).`,
    );
    this.name = "StoreIdentityConflictError";
  }
}

export interface StoreIdentityOptions {
  nc: NatsConnection;
  storeId: string;
  logger: Logger;
  metrics: LedgerMetrics;
  /** Bucket max_age: an announcement not refreshed for this long is gone (default 30 s). */
  ttlMs?: number;
  /** How often a running ledger refreshes its announcement (default 10 s; must be below the TTL). */
  refreshMs?: number;
  /** Copies of the bucket (NATS_STREAM_REPLICAS; default 1). */
  replicas?: number;
}

export interface StoreIdentityGuard {
  /** Stops refreshing and deletes the entry if it still names our store. Idempotent. */
  release(): Promise<void>;
}

/** NATS 503, no responders: a bucket just created by another replica does not answer yet. */
function isNotAnsweringYet(err: unknown): boolean {
  return (err as { code?: string })?.code === "503";
}

/** Revision of the last write under a key was not the expected one (JSStreamWrongLastSequenceErrF). */
function isWrongLastSequence(err: unknown): boolean {
  const e = err as { api_error?: { err_code?: number }; message?: string };
  return e?.api_error?.err_code === 10071 || /wrong last sequence/i.test(String(e?.message));
}

function parse(entry: KvEntry): Announcement {
  try {
    const value = entry.json<Partial<Announcement>>();
    if (typeof value.storeId === "string")
      return { storeId: value.storeId, holder: String(value.holder ?? "unknown"), at: String(value.at ?? entry.created.toISOString()) };
  } catch {
    // fall through: not one of ours
  }
  return { storeId: entry.string(), holder: "unknown", at: entry.created.toISOString() };
}

/** The live entry under `identity`, or undefined when there is none (never written, deleted, expired). */
async function current(kv: KV): Promise<{ entry: KvEntry; announcement: Announcement } | undefined> {
  const entry = await kv.get(STORE_IDENTITY_KEY);
  if (!entry || entry.operation !== "PUT") return undefined;
  return { entry, announcement: parse(entry) };
}

/** Binds the bucket, creating it, and brings its TTL, byte limit and replicas to what this ledger is configured with. */
async function openBucket(nc: NatsConnection, ttlMs: number, replicas: number): Promise<KV> {
  const options = {
    ttl: ttlMs,
    history: 1,
    replicas,
    max_bytes: STORE_IDENTITY_MAX_BYTES,
    description: "ledger: id of the store every ledger on this NATS writes to",
  };
  // Two first-ever starts with different settings: the loser's create fails; it then binds the winner's.
  const kv = await nc
    .jetstream()
    .views.kv(STORE_IDENTITY_BUCKET, options)
    .catch(() => nc.jetstream().views.kv(STORE_IDENTITY_BUCKET, options));
  const { streamInfo } = await kv.status();
  const maxAge = ttlMs * 1_000_000;
  if (
    streamInfo.config.max_age !== maxAge ||
    streamInfo.config.max_bytes !== STORE_IDENTITY_MAX_BYTES ||
    (streamInfo.config.num_replicas ?? 1) < replicas
  ) {
    // An existing bucket keeps the settings it was created with; the running configuration wins.
    const jsm = await nc.jetstreamManager();
    await jsm.streams.update(streamInfo.config.name, {
      ...streamInfo.config,
      max_age: maxAge,
      max_bytes: STORE_IDENTITY_MAX_BYTES,
      duplicate_window: Math.min(streamInfo.config.duplicate_window ?? maxAge, maxAge),
      num_replicas: Math.max(streamInfo.config.num_replicas ?? 1, replicas),
    });
  }
  return kv;
}

/**
 * Announces `storeId` and keeps announcing it every `refreshMs`; throws StoreIdentityConflictError
 * when a live announcement names another store. Same-store ledgers (replicas, a restart) join.
 */
export async function claimStoreIdentity(opts: StoreIdentityOptions): Promise<StoreIdentityGuard> {
  const { storeId, logger, metrics } = opts;
  const ttlMs = opts.ttlMs ?? DEFAULT_STORE_IDENTITY_TTL_MS;
  const refreshMs = opts.refreshMs ?? DEFAULT_STORE_IDENTITY_REFRESH_MS;
  if (!(refreshMs > 0 && refreshMs < ttlMs))
    throw new Error(`store identity: refreshMs (${refreshMs}) must be above 0 and below ttlMs (${ttlMs})`);
  const kv = await openBucket(opts.nc, ttlMs, opts.replicas ?? 1);
  const announcement = (): string =>
    JSON.stringify({ storeId, holder: `${hostname()}/${process.pid}`, at: new Date().toISOString() } satisfies Announcement);

  // Create, or join an entry naming our store; an entry that vanishes between the two is retried.
  for (let attempt = 1; ; attempt++) {
    try {
      await kv.create(STORE_IDENTITY_KEY, announcement());
      break;
    } catch (err) {
      if (attempt >= 5) throw err;
      // A bucket just created (by this replica or a sibling starting beside it) may not answer for a
      // moment: NATS says 503, no responders. Ask again shortly.
      if (isNotAnsweringYet(err)) {
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
        continue;
      }
      if (!isWrongLastSequence(err)) throw err;
    }
    const live = await current(kv);
    if (!live) continue;
    if (live.announcement.storeId !== storeId) throw new StoreIdentityConflictError(storeId, live.announcement, ttlMs);
    break; // a replica on our store announced it already; our refreshes keep it alive too
  }
  metrics.storeIdentityConflict(false);
  logger.info({ storeId, bucket: STORE_IDENTITY_BUCKET, ttlMs, refreshMs }, "store identity announced");

  /** Rewrites our entry (compare-and-set on its revision), re-creates it when gone, reports another store's. */
  async function refresh(): Promise<void> {
    const live = await current(kv);
    if (!live) {
      await kv.create(STORE_IDENTITY_KEY, announcement());
    } else if (live.announcement.storeId !== storeId) {
      // Started beside us while our entry was missing (NATS unreachable past the TTL, or a same-store
      // replica deleted it on stop). Both keep running: make it loud.
      metrics.storeIdentityConflict(true);
      logger.error({ ours: storeId, theirs: live.announcement }, new StoreIdentityConflictError(storeId, live.announcement, ttlMs).message);
      return;
    } else {
      await kv.update(STORE_IDENTITY_KEY, announcement(), live.entry.revision);
    }
    metrics.storeIdentityConflict(false);
  }

  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      running = refresh()
        .catch((err: unknown) => {
          // A same-store replica refreshed between our read and write: the entry is fresh anyway.
          if (isWrongLastSequence(err)) logger.debug({ err }, "store identity refreshed concurrently");
          else logger.warn({ err }, "store identity refresh failed; retrying next interval");
        })
        .finally(() => {
          if (!stopped) schedule();
        });
    }, refreshMs);
  };
  schedule();

  let releasing: Promise<void> | undefined;
  return {
    release() {
      releasing ??= (async () => {
        stopped = true;
        clearTimeout(timer);
        await running;
        try {
          const live = await current(kv);
          // Only our store's entry: never free the slot another store holds.
          if (live?.announcement.storeId === storeId) await kv.delete(STORE_IDENTITY_KEY, { previousSeq: live.entry.revision });
        } catch (err) {
          // Refreshed concurrently by a same-store replica (it stays announced), or NATS gone (expires after the TTL).
          logger.warn({ err }, "store identity not withdrawn; it expires after its TTL");
        }
      })();
      return releasing;
    },
  };
}
