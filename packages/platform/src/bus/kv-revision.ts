// Compare-and-set on NATS KV: `update(key, value, revision)` and `create(key, value)` fail with
// JetStream's "wrong last sequence" when another writer changed the key since it was read. That one
// error means a lost race (read again and retry, or refuse); any other is NATS failing.

/** JetStream's error code for a write whose expected revision is no longer the key's last. */
const WRONG_LAST_SEQUENCE = 10071;

/** Whether `err` is a compare-and-set write that lost to another writer (not NATS failing). */
export function isLostRevisionRace(err: unknown): boolean {
  if ((err as { api_error?: { err_code?: number } } | null)?.api_error?.err_code === WRONG_LAST_SEQUENCE) return true;
  return /wrong last sequence/i.test(String((err as Error | null)?.message ?? ""));
}
