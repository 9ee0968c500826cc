// Per-caller limits around the API-key middleware of the authenticated routes:
// - an authenticated key is held to its rate (requests per second with a burst) and to its cap of
//   requests in flight; over either it gets 429 RATE_LIMITED or CONCURRENCY_LIMITED with Retry-After
//   and the RateLimit headers, so one key cannot take the service from the others;
// - requests without a valid key are limited per client IP, at a small budget of their own: once
//   an IP has spent it, its next requests are refused before their key is looked up, so a flood of
//   made-up keys cannot keep the ledger busy. Keys seen valid recently still pass, so a caller
//   behind the same address as the flood is not locked out.
import { createHash } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import { HttpError, sendErrorResponse } from "../errors";
import { parseBearer } from "../middleware/auth";
import type { KeyLimits, KeyLimitsSource } from "./key-limits";
import type { LimitStore } from "./limit-store";
import { setKeyHeaders, setUnauthenticatedHeaders } from "./headers";
import type { GatewayMetrics } from "../metrics";

export interface CallerLimits {
  store: LimitStore;
  /** Where each key's limits come from (the key's ledger record, kept on the caller, over the configured defaults). */
  source: KeyLimitsSource;
  /** Requests without a valid key one client IP may send per minute. */
  unauthenticatedPerMinute: number;
  metrics: Pick<GatewayMetrics, "requestLimited">;
}

const hashOf = (key: string) => createHash("sha256").update(key).digest("hex");

function keyFrom(req: Request): string | undefined {
  const parsed = parseBearer(req.headers.authorization);
  return "key" in parsed ? parsed.key : undefined;
}

/** Returns `auth` wrapped in the per-IP budget (before it) and the per-key limits (after it). */
export function limitCallers(auth: RequestHandler, limits: CallerLimits): RequestHandler {
  const { store, source, unauthenticatedPerMinute, metrics } = limits;
  // IP → refused until its budget's window ends (the entry's TTL); bounded, so a spoofing flood
  // cannot grow it without end.
  const refusedIps = new LRUCache<string, true>({ max: 100_000, ttl: 60_000 });
  // Hashes of keys that passed authentication lately: they pass a refused IP.
  const knownKeys = new LRUCache<string, true>({ max: 100_000, ttl: 5 * 60_000 });

  const countUnauthenticated = (ip: string) => {
    store.consumeUnauthenticated(ip).then(
      (decision) => {
        if (!decision.allowed) refusedIps.set(ip, true, { ttl: Math.max(1, decision.msBeforeNext) });
      },
      () => undefined, // the store falls back to counting in process; nothing to refuse on
    );
  };

  const refuseIp = (res: Response, resetMs: number) => {
    metrics.requestLimited("unauthenticated");
    setUnauthenticatedHeaders(res, unauthenticatedPerMinute, resetMs);
    sendErrorResponse(
      res,
      new HttpError(
        429,
        "RATE_LIMITED",
        `Too many requests without a valid API key from this address (at most ${unauthenticatedPerMinute} a minute).`,
        "Send a valid key in 'Authorization: Bearer aak_...'; retry after the Retry-After seconds.",
      ),
    );
  };

  const admit = async (res: Response): Promise<boolean> => {
    const { caller } = res.locals;
    const { keyId } = caller;
    const keyLimits: KeyLimits = await source.limitsFor(caller);
    const rate = await store.consumeRate(keyId, keyLimits.requestsPerSecond, keyLimits.burst);
    if (!rate.allowed) {
      metrics.requestLimited("rate");
      setKeyHeaders(res, keyLimits, { rateRemaining: 0, rateResetMs: rate.msBeforeNext });
      res.setHeader("Retry-After", String(Math.max(1, Math.ceil(rate.msBeforeNext / 1000))));
      const burst = keyLimits.burst > keyLimits.requestsPerSecond ? ` (bursts of up to ${keyLimits.burst})` : "";
      sendErrorResponse(
        res,
        new HttpError(
          429,
          "RATE_LIMITED",
          `This API key sent more than ${keyLimits.requestsPerSecond} requests a second${burst}.`,
          "Retry after the Retry-After seconds, and pace requests by the RateLimit header (r = requests left, t = seconds until they refill).",
        ),
      );
      return false;
    }
    const slot = await store.inFlight.acquire(keyId, keyLimits.maxInFlight);
    if (!slot) {
      metrics.requestLimited("concurrency");
      setKeyHeaders(res, keyLimits, { rateRemaining: rate.remaining, rateResetMs: rate.msBeforeNext, inFlightRemaining: 0 });
      // A slot frees when one of the key's requests ends, which no clock predicts: ask again soon.
      res.setHeader("Retry-After", "1");
      sendErrorResponse(
        res,
        new HttpError(
          429,
          "CONCURRENCY_LIMITED",
          `This API key already has ${keyLimits.maxInFlight} requests in flight, its limit.`,
          "Wait for one of your requests to finish before sending another (or retry after the Retry-After seconds).",
        ),
      );
      return false;
    }
    res.once("close", slot.release);
    setKeyHeaders(res, keyLimits, {
      rateRemaining: rate.remaining,
      rateResetMs: rate.msBeforeNext,
      inFlightRemaining: keyLimits.maxInFlight - slot.inFlight,
    });
    return true;
  };

  return (req, res, next) => {
    const ip = req.ip ?? req.socket.remoteAddress ?? "unknown";
    const refusedForMs = refusedIps.getRemainingTTL(ip);
    if (refusedForMs > 0) {
      const key = keyFrom(req);
      if (key === undefined || !knownKeys.has(hashOf(key))) return refuseIp(res, refusedForMs);
    }
    let authenticated = false;
    // A 401 from the API-key middleware is a request without a valid key: it counts against the IP.
    res.once("finish", () => {
      if (!authenticated && res.statusCode === 401) countUnauthenticated(ip);
    });
    void auth(req, res, (err?: unknown) => {
      if (err) return next(err);
      authenticated = true;
      const { apiKeyHash } = res.locals;
      if (apiKeyHash !== undefined) knownKeys.set(apiKeyHash, true);
      admit(res).then((admitted) => admitted && next(), next);
    });
  };
}
