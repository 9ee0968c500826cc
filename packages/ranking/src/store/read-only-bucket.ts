// A bucket the router owns, read by a process that may not create or change it (the executor ranks from
// it: NATS lets it read only). Bound on first use, not at start, since the router creates it and may
// start later; until it exists every key reads as absent, which is what a bucket nobody wrote yet holds.
import type { KV, NatsConnection } from "nats";

export type BucketBinding = () => Promise<KV | undefined>;

export function bindReadOnly(nc: NatsConnection, name: string): BucketBinding {
  let bound: Promise<KV> | undefined;
  return async () => {
    bound ??= nc.jetstream().views.kv(name, { bindOnly: true });
    try {
      return await bound;
    } catch (err) {
      bound = undefined;
      // Only a bucket not created yet reads as empty; NATS failing is the caller's 503 (storeCall).
      if (err instanceof Error && /stream not found/i.test(err.message)) return undefined;
      throw err;
    }
  };
}
