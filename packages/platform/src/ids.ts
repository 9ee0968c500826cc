// Prefixed random ids, one prefix per kind, so an id says what it names.
import { randomBytes } from "node:crypto";

/** Prefix of each id kind. */
export const ID_PREFIXES = {
  apiKey: "aak",
  apiKeyRecord: "key",
  hold: "hold",
  usage: "use",
  execution: "exe",
  attempt: "att",
  grant: "grant",
  journal: "jrn",
  store: "sto",
  quote: "quo",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/**
 * What a well-formed API key looks like: `aak_` + 32..128 base62 characters. The ledger creates and
 * registers only such keys; the gateway refuses any other bearer before it costs a lookup.
 */
export const API_KEY_PATTERN = new RegExp(`^${ID_PREFIXES.apiKey}_[0-9A-Za-z]{32,128}$`);

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Random bytes drawn from the CSPRNG in blocks and handed out once each, front to back: a
 * `randomBytes` call per id cost more than the id (a Buffer and a call into OpenSSL for 44 bytes, at
 * several ids per execute). Node's randomUUID keeps such a pool too.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function randomByte(): number {
  if (poolOffset === pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/** Returns `length` characters of uniformly random base62 (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62]; // 248 = 4 * 62: keeps the distribution uniform
  }
  return out;
}

/** New id of a kind, e.g. `newId("hold")` → `hold_4fQx...` (22 base62 chars, ~131 bits). */
export function newId(kind: IdKind, length = 22): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(length)}`;
}
