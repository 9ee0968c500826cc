// Whether a GET's If-None-Match names the answer's ETag, as RFC 9110 (13.1.2) reads it: a list of
// tags, `*`, and weak comparison (W/"x" names "x"), parsed by `fresh` (express's own check). Only
// If-None-Match is passed on: fresh also answers in full when the request says Cache-Control:
// no-cache, which fetch() adds to every conditional request, and an origin server owes a 304 anyway.
import type { IncomingHttpHeaders } from "node:http";
import fresh from "fresh";

export function isNotModified(requestHeaders: IncomingHttpHeaders, etag: string): boolean {
  const ifNoneMatch = requestHeaders["if-none-match"];
  return ifNoneMatch !== undefined && fresh({ "if-none-match": ifNoneMatch }, { etag });
}
