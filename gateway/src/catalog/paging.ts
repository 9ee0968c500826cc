// Pages of catalog lists. A page is asked for with `limit` (1..200) and/or `cursor`; the cursor is
// opaque to clients and names the catalog version, the list's filters and the offset of the next
// item. A list is immutable within a catalog version, so an offset into it never skips or repeats;
// a cursor of another version is refused with 410 (start again), never answered with a page that
// mixes versions. The next page's URL goes in `Link: <…>; rel="next"` (RFC 8288), the item count
// of the whole list in `X-Total-Count`.
import { createHash } from "node:crypto";
import type { Request } from "express";
import type { z } from "zod";
import { HttpError, invalidInput } from "../errors";
import { parseQuery } from "../http/request-schema";
import { DEFAULT_PAGE_LIMIT, pageQuery } from "../routes/requests/catalog-lists";
import type { VersionedValue } from "./rendered-cache";

export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "../routes/requests/catalog-lists";
export const CURSOR_EXPIRED = "CURSOR_EXPIRED";

/** Where a page starts, and what its cursor was cut for (when it came from one). */
export interface PageRequest {
  limit: number;
  offset: number;
  /** The catalog version the cursor was cut from; absent on a first page. */
  catalogVersion?: string;
}

interface CursorState {
  /** Catalog version. */
  v: string;
  /** Offset of the next item. */
  o: number;
  /** Digest of the list's filters. */
  f: string;
}

/** A digest of what selects a list's items (its path and filters), so a cursor serves only its own list. */
export function filterDigest(path: string, filters: Readonly<Record<string, string | undefined>>): string {
  const canonical = JSON.stringify([
    path,
    Object.entries(filters)
      .filter(([, v]) => v !== undefined)
      .sort(),
  ]);
  return createHash("sha256").update(canonical).digest("base64url").slice(0, 12);
}

/** `limit` and `cursor` as requests/catalog-lists.ts declares them, checked (400 INVALID_INPUT naming a bad one). */
export type PageQuery = z.output<typeof pageQuery>;

/** The `limit` and `cursor` of a domain's list (other parameters are not this list's business, as always). */
export function parsePageQuery(req: Request): PageQuery {
  return parseQuery(pageQuery, req);
}

/**
 * The page asked for; undefined when neither `limit` nor `cursor` is sent and `always` is false (the
 * list answers whole, as before paging). 400 INVALID_INPUT for a cursor cut for another list.
 */
export function pageRequestOf({ limit: asked, cursor }: PageQuery, filters: string, always = false): PageRequest | undefined {
  if (asked === undefined && cursor === undefined && !always) return undefined;
  const limit = asked ?? DEFAULT_PAGE_LIMIT;
  if (cursor === undefined) return { limit, offset: 0 };
  const state = decodeCursor(cursor);
  if (!state || state.f !== filters)
    throw invalidInput(
      "cursor",
      "is not a cursor of this list",
      'Follow the Link rel="next" URL of the previous page as it is, or leave cursor out to start again.',
    );
  return { limit, offset: state.o, catalogVersion: state.v };
}

/** The parameters that select a list's answer, in a fixed order; an undefined value is left out. */
export type SelectingParams = ReadonlyArray<readonly [string, string | number | undefined]>;

/**
 * The query of `params` as one string ("" or "?a=1&b=2"): the same parameters always give the same
 * key, whatever their order, spelling (limit=05) or other parameters the request came with, so
 * parameters that select nothing cannot crowd real pages out of the cache. (A default written out,
 * `?limit=50`, is a key of its own: the plain list is answered from memory before parsing.)
 */
export function canonicalQuery(params: SelectingParams): string {
  const query = new URLSearchParams();
  for (const [name, value] of params) if (value !== undefined) query.append(name, String(value));
  const text = query.toString();
  return text === "" ? "" : `?${text}`;
}

/**
 * The key a page is kept under, and the path and query of its `Link`: `path`, the parameters that select
 * the list, then `limit` and `cursor`, in canonical order.
 */
export function pageKey(
  path: string,
  selecting: SelectingParams,
  page: { limit?: number | undefined; cursor?: string | undefined },
): string {
  return path + canonicalQuery([...selecting, ["limit", page.limit], ["cursor", page.cursor]]);
}

/** The page of `items` asked for, with its Link and X-Total-Count headers; 410 when the cursor is of another catalog version. */
export function pageOf(
  items: readonly unknown[],
  catalogVersion: string,
  page: PageRequest,
  filters: string,
  nextUrl: (cursor: string) => string,
): VersionedValue {
  return pagedAnswer(items.slice(page.offset, page.offset + page.limit), items.length, catalogVersion, page, filters, nextUrl);
}

/**
 * The answer of one page already cut (`items`, of a list of `total` items in `catalogVersion`), with
 * its Link and X-Total-Count headers; 410 when the cursor is of another catalog version.
 */
export function pagedAnswer(
  items: readonly unknown[],
  total: number,
  catalogVersion: string,
  page: PageRequest,
  filters: string,
  nextUrl: (cursor: string) => string,
): VersionedValue {
  if (page.catalogVersion !== undefined && page.catalogVersion !== catalogVersion) throw cursorExpired();
  const end = page.offset + page.limit;
  const headers: Record<string, string> = { "X-Total-Count": String(total) };
  if (end < total) headers.Link = `<${nextUrl(encodeCursor({ v: catalogVersion, o: end, f: filters }))}>; rel="next"`;
  return { catalogVersion, value: items, headers };
}

/**
 * The URL of the next page: the request's own path with the parameters that select the list, then
 * `limit` and `cursor`, in canonical order (the key the next page is kept under, so a client following
 * it is answered from memory).
 */
export function nextPageUrl(req: Request, selecting: SelectingParams, limit: number): (cursor: string) => string {
  const { pathname } = new URL(req.originalUrl, "http://gateway");
  return (cursor) => pageKey(pathname, selecting, { limit, cursor });
}

export function cursorExpired(): HttpError {
  return new HttpError(
    410,
    CURSOR_EXPIRED,
    "the catalog changed since this cursor was given",
    "Start the walk again from the first page (the same URL without cursor).",
  );
}

function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify(state)).toString("base64url");
}

/** The state of a cursor whose format pageQuery checked. */
function decodeCursor(raw: string): CursorState | undefined {
  try {
    const state = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Partial<CursorState>;
    const ok = typeof state.v === "string" && typeof state.f === "string" && Number.isSafeInteger(state.o) && state.o! >= 0;
    return ok ? (state as CursorState) : undefined;
  } catch {
    return undefined;
  }
}
