// Other spellings of a capability id answer the canonical resource. An id is the capability key's
// parts after the domain joined with "-" (`inbox-buy` for `email.inbox.buy`); agents written for the
// hosted product also spell it with dots (`inbox.buy`) or as the whole key (`email.inbox.buy`).
// The path is rewritten before routing, so catalog reads, recommend, execute and quotes (and the
// Idempotency-Key's request hash) all see one id; Content-Location names the canonical path.
import type { RequestHandler } from "express";

const CAPABILITY_PATH = /^\/domains\/([^/?]+)\/capabilities\/([^/?]+)(.*)$/s;

/** `inbox-buy` for `inbox.buy` or `email.inbox.buy` in domain `email`; a canonical id comes back unchanged. */
export function canonicalCapabilityId(domainKey: string, capabilityId: string): string {
  const parts = capabilityId.startsWith(`${domainKey}.`) ? capabilityId.slice(domainKey.length + 1) : capabilityId;
  return parts.replace(/\./g, "-");
}

export function capabilityAliases(): RequestHandler {
  return (req, res, next) => {
    const match = CAPABILITY_PATH.exec(req.url);
    const [, domainKey, capabilityId, rest] = match ?? [];
    if (domainKey !== undefined && capabilityId?.includes(".")) {
      const canonical = canonicalCapabilityId(domainKey, capabilityId);
      req.url = `/domains/${domainKey}/capabilities/${canonical}${rest ?? ""}`;
      res.setHeader("Content-Location", `${req.baseUrl}${req.url.split("?")[0]}`);
    }
    next();
  };
}
