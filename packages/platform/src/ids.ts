// Prefixed ids, one prefix per kind, so an id says what it names; each begins with its creation time,
// so the stores' unique indexes on ids grow at one end (below).
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

/** Base62 digits of the creation time: 62^8 ms is about 6,900 years from 1970. */
const TIME_DIGITS = 8;

/** The current time in milliseconds as TIME_DIGITS base62 digits, most significant first (sorts as text). */
function timeBase62(): string {
  let ms = Date.now();
  let out = "";
  for (let i = 0; i < TIME_DIGITS; i++) {
    out = BASE62[ms % 62]! + out;
    ms = Math.floor(ms / 62);
  }
  return out;
}

/**
 * New id of a kind, e.g. `newId("hold")` → `hold_0bkQx3Fm4fQx...`: 22 base62 characters, the first 8
 * the creation time in milliseconds and the rest random (83 bits, so ids of one millisecond do not
 * collide either). Time first, as in UUIDv7 and ULID: every store keeps ids in unique B-tree indexes,
 * and a random id lands on a random leaf page of each, so one group commit of a busy ledger wrote a
 * page per id per index to the WAL (and again at checkpoint); ids in creation order all land on the
 * last leaf. Not for secrets: API keys are random throughout (randomBase62), and have no kind here.
 */
export function newId(kind: Exclude<IdKind, "apiKey">, length = 22): string {
  return `${ID_PREFIXES[kind]}_${timeBase62()}${randomBase62(length - TIME_DIGITS)}`;
}
