// Opens (creating when missing) a JetStream KV bucket the router replicas share, file-backed, one
// value per key, and brings an existing bucket's lifetime and replicas to this replica's settings.
import { StorageType, type KV, type NatsConnection } from "nats";

export interface KvBucketOptions {
  /** How long a value lives after its last write, in ms. */
  ttlMs: number;
  replicas: number;
  description: string;
}

export async function openKvBucket(nc: NatsConnection, name: string, opts: KvBucketOptions): Promise<KV> {
  const options = { ttl: opts.ttlMs, history: 1, replicas: opts.replicas, storage: StorageType.File, description: opts.description };
  // Two replicas starting together: the loser's create fails; it then binds the winner's bucket.
  const kv = await nc
    .jetstream()
    .views.kv(name, options)
    .catch(() => nc.jetstream().views.kv(name, options));
  const { streamInfo } = await kv.status();
  const maxAge = opts.ttlMs * 1_000_000;
  if (streamInfo.config.max_age !== maxAge || (streamInfo.config.num_replicas ?? 1) < opts.replicas) {
    // An existing bucket keeps the settings it was created with; the running configuration wins.
    const jsm = await nc.jetstreamManager();
    await jsm.streams.update(streamInfo.config.name, {
      ...streamInfo.config,
      max_age: maxAge,
      duplicate_window: Math.min(streamInfo.config.duplicate_window ?? maxAge, maxAge),
      num_replicas: Math.max(streamInfo.config.num_replicas ?? 1, opts.replicas),
    });
  }
  return kv;
}
