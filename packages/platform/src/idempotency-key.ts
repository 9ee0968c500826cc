// What an Idempotency-Key may be, wherever one arrives (the execute header at the gateway, an
// ExecuteRequest at the executor): 1 to MAX_IDEMPOTENCY_KEY_LENGTH printable ASCII characters. Each
// boundary words its own refusal; the rule is this one.

/** Longest Idempotency-Key accepted (Stripe's limit). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Printable ASCII only: the key is stored and compared byte for byte. */
export const IDEMPOTENCY_KEY_CHARACTERS = /^[\x20-\x7e]*$/;

/** Whether `key` is an Idempotency-Key this platform accepts. */
export function isIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= MAX_IDEMPOTENCY_KEY_LENGTH && IDEMPOTENCY_KEY_CHARACTERS.test(key);
}
