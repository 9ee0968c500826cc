// The cursor of ListUsage: an opaque token naming the last item of a page by its place in newest-first
// order (createdAt, key). Keyset paging, not an offset: items written while a client pages never shift
// the pages, so each item already there is seen exactly once.
import { invalidField } from "./errors";
import type { UsagePosition } from "./types";

/** The longest cursor accepted: a key (at most 128 characters, up to 4 bytes each in UTF-8) plus a time, in base64url. */
export const MAX_CURSOR_LENGTH = 1024;

export function encodeUsageCursor(position: UsagePosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.getTime(), position.key])).toString("base64url");
}

/** The position a cursor names; INVALID_ARGUMENT (field cursor) for anything this ledger did not make. */
export function decodeUsageCursor(cursor: string): UsagePosition {
  const invalid = () =>
    invalidField(
      "cursor",
      "cursor is not a cursor of this list.",
      "Send nextCursor exactly as the previous page gave it, or no cursor for the newest page.",
    );
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 2) throw invalid();
  const [at, key] = value as unknown[];
  if (!Number.isSafeInteger(at) || typeof key !== "string" || key.length === 0 || key.length > 128) throw invalid();
  const createdAt = new Date(at as number);
  if (Number.isNaN(createdAt.getTime())) throw invalid();
  return { createdAt, key };
}
