// Headers every answer carries: the usual API security headers (helmet's, with the browser-page
// policies an API does not need left at their strict defaults), and Cache-Control: no-store on
// every answer to a request that names a caller (an Authorization header): balances, usage and
// execution results must never sit in a shared cache.
//
// helmet's headers do not depend on the request in this configuration (no CSP nonces), so helmet
// runs once, at start-up, and every answer gets the headers it set in one pass instead of a dozen
// middleware calls per request.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import helmet from "helmet";

/** Runs helmet once against a recording response and returns the headers it sets, in its order. */
function helmetHeaders(): ReadonlyArray<readonly [string, string]> {
  const headers: Array<readonly [string, string]> = [];
  let called = false;
  const recorder = {
    setHeader(name: string, value: string | number) {
      headers.push([name, String(value)]);
    },
    removeHeader() {},
    getHeader: () => undefined,
  };
  helmet({ strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true } })(
    { method: "GET", headers: {} } as IncomingMessage,
    recorder as unknown as ServerResponse,
    () => (called = true),
  );
  // A helmet that answered asynchronously or per request would need to run per request again.
  if (!called || headers.length === 0) throw new Error("helmet did not set its headers synchronously");
  return headers;
}

/** The security headers of every answer, as helmet sets them. */
export const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = helmetHeaders();

/** Sets the security headers, and Cache-Control: no-store when the request names a caller. */
export function setResponseHeaders(req: IncomingMessage, res: ServerResponse): void {
  for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
  if (req.headers.authorization !== undefined) res.setHeader("Cache-Control", "no-store");
}

/** The security headers plus `extra`, for an answer written with writeHead in one call. */
export function withSecurityHeaders(extra: OutgoingHttpHeaders): OutgoingHttpHeaders {
  return { ...Object.fromEntries(SECURITY_HEADERS), ...extra };
}
