// Headers every answer carries: the usual API security headers (helmet, with the browser-page
// policies an API does not need left at their strict defaults), and Cache-Control: no-store on
// every answer to a request that names a caller (an Authorization header): balances, usage and
// execution results must never sit in a shared cache.
import helmet from "helmet";
import type { RequestHandler } from "express";

export function securityHeaders(): RequestHandler {
  return helmet({ strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true } });
}

export const noStoreForCallers: RequestHandler = (req, res, next) => {
  if (req.headers.authorization !== undefined) res.setHeader("Cache-Control", "no-store");
  next();
};
