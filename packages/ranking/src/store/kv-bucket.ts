// Opens (creating when missing) a JetStream KV bucket the router replicas share, file-backed, one
// value per key, and brings an existing bucket's lifetime, size and replicas to this replica's settings.
import { DiscardPolicy, StorageType, type KV, type NatsConnection } from "nats";
import { unavailable } from "@agentic/platform";

export interface KvBucketOptions {
  /** How long a value lives after its last write, in ms. */
  ttlMs: number;
  replicas: number;
  /**
   * Most bytes the bucket holds; when full the oldest values go first (writes are never refused). Required:
   * every bucket shares JetStream's storage with the EXECUTIONS stream (list it in config.ts jetStreamFootprint).
   */
  maxBytes: number;
  description: string;
}

export async function openKvBucket(nc: NatsConnection, name: string, opts: KvBucketOptions): Promise<KV> {
  const maxBytes = opts.maxBytes;
  const options = {
    ttl: opts.ttlMs,
    history: 1,
    replicas: opts.replicas,
    max_bytes: maxBytes,
    storage: StorageType.File,
    description: opts.description,
  };
  // Two replicas starting together: the loser's create fails; it then binds the winner's bucket.
  const kv = await nc
    .jetstream()
    .views.kv(name, options)
    .catch(() => nc.jetstream().views.kv(name, options));
  const { streamInfo } = await kv.status();
  const config = streamInfo.config;
  const maxAge = opts.ttlMs * 1_000_000;
  // A bounded bucket drops its oldest values when full (KV buckets refuse new writes by default).
  const discard = maxBytes > 0 ? DiscardPolicy.Old : config.discard;
  if (
    config.max_age !== maxAge ||
    (config.max_bytes ?? -1) !== maxBytes ||
    config.discard !== discard ||
    (config.num_replicas ?? 1) < opts.replicas
  ) {
    // An existing bucket keeps the settings it was created with; the running configuration wins.
    const jsm = await nc.jetstreamManager();
    await jsm.streams.update(config.name, {
      ...config,
      max_age: maxAge,
      max_bytes: maxBytes,
      discard,
      duplicate_window: Math.min(config.duplicate_window ?? maxAge, maxAge),
      num_replicas: Math.max(config.num_replicas ?? 1, opts.replicas),
    });
  }
  return kv;
}

/** A KV call that fails (NATS unreachable, timeout) is the router being unavailable, retried by the client. */
export async function storeCall<T>(store: "recommendation" | "preference", call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch {
    throw unavailable("UNAVAILABLE", `The ${store} store is unavailable.`, "Retry shortly.");
  }
}
