// How large a settlement may be. A capture carries a keyed execution's whole answer (what a retry
// replays), so every answer the executor accepts must fit one NATS message: vendor answers are read up
// to 2 MiB (rails/http-exchange.ts), and the answer built from one can grow (base64 of a binary body is
// 4/3 of it, JSON escapes of a text body more). The executor refuses to start on a NATS server whose
// max_payload is below LARGEST_SETTLEMENT_BYTES (app.ts), so settling an accepted answer never fails
// for its size; an answer beyond SETTLED_ANSWER_MAX_BYTES (only a pathological expansion reaches it)
// is still charged and answered, and stored without its data, like an unkeyed execution's.

/** Largest settlement message the executor publishes: the NATS server's max_payload must be at least this (8 MiB). */
export const LARGEST_SETTLEMENT_BYTES = 8 * 1024 * 1024;
/** Largest answer (its stored JSON) a capture carries whole; the rest of the message is its usage item and headers. */
const SETTLED_ANSWER_MAX_BYTES = LARGEST_SETTLEMENT_BYTES - 512 * 1024;

/** Whether an answer's stored JSON fits a capture. */
export function fitsSettlement(bodyJson: string): boolean {
  return Buffer.byteLength(bodyJson, "utf8") <= SETTLED_ANSWER_MAX_BYTES;
}
