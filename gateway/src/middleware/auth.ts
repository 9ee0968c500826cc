// Bearer API-key authentication for recommend, execute, wallet and usage. Keys are checked by
// the ledger; answers are cached briefly so the hot path rarely leaves the process, while a
// revoked key still stops working within the cache TTL. A bearer that is not shaped like a key
// (API_KEY_PATTERN) is refused at once: it costs no ledger lookup and no cache slot.
import { createHash } from "node:crypto";
import type { RequestHandler } from "express";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { LRUCache } from "lru-cache";
import type { LedgerClient } from "@agentic/clients";
import { API_KEY_PATTERN } from "@agentic/platform";
import { HttpError, sendErrorResponse } from "../errors";

import type { ApiKeyLimits } from "@agentic/proto/ledger/v1";
import type { KeyLimits } from "../limits/key-limits";
import type { Caller } from "../locals";

export interface AuthOptions {
  /** How long a valid key is trusted without asking the ledger again (ms). */
  ttlMs: number;
  /** How long an unknown key is remembered as unknown (ms); short, so a new key works at once. */
  negativeTtlMs: number;
  maxEntries: number;
}

const DEFAULT_OPTIONS: AuthOptions = { ttlMs: 5_000, negativeTtlMs: 1_000, maxEntries: 10_000 };

export const KEY_REQUIRED_HINT = "Send the header 'Authorization: Bearer aak_...' with your API key.";
export const INVALID_KEY_HINT = "Check the key; create a new one with `npm run keys -- create --user <id>` if it was revoked.";
export const MALFORMED_KEY_HINT = "An API key is aak_ followed by 32 to 128 letters and digits; check that the whole key was sent.";

type ParsedAuth = { key: string } | { code: "AGENTIC_API_KEY_REQUIRED" | "INVALID_API_KEY"; error: string };

/** Reads the bearer key from an Authorization header, or says why there is none. */
export function parseBearer(header: string | undefined): ParsedAuth {
  const value = header?.trim() ?? "";
  if (value === "") return { code: "AGENTIC_API_KEY_REQUIRED", error: "an API key is required" };
  const match = /^Bearer(?:\s+(\S*))?$/i.exec(value);
  if (!match) return { code: "INVALID_API_KEY", error: "the Authorization scheme must be Bearer" };
  if (!match[1]) return { code: "AGENTIC_API_KEY_REQUIRED", error: "the bearer token is empty" };
  return { key: match[1] };
}

/** The fields the key's record sets (none: undefined), so a default is never overwritten by an unset field. */
function ownLimits(limits: ApiKeyLimits | undefined): Partial<KeyLimits> | undefined {
  if (!limits) return undefined;
  const own: Partial<KeyLimits> = {};
  if (limits.requestsPerSecond) own.requestsPerSecond = limits.requestsPerSecond;
  if (limits.burst) own.burst = limits.burst;
  if (limits.maxInFlight) own.maxInFlight = limits.maxInFlight;
  return Object.keys(own).length ? own : undefined;
}

/** Returns middleware that authenticates the bearer key and sets `res.locals.caller`. */
export function requireApiKey(ledger: LedgerClient, options: Partial<AuthOptions> = {}): RequestHandler {
  const opts = { ...DEFAULT_OPTIONS, ...options };
  // Keyed by the key's hash, so plaintext keys do not sit in the cache; the plaintext reaches the
  // lookup as fetch context only. Concurrent requests with a key not (or no longer) cached share
  // one AuthenticateApiKey call. An unknown key is remembered as `false`, briefly.
  const cache = new LRUCache<string, Caller | false, string>({
    max: opts.maxEntries,
    ttl: opts.ttlMs,
    fetchMethod: async (_hash, _stale, { context: key, options: setOptions }) => {
      try {
        const found = await ledger.authenticateApiKey({ apiKey: key });
        // The key's limits ride with the caller, so the limiter reads them without another lookup;
        // they change here when this entry is fetched again (ttlMs).
        const limits = ownLimits(found.limits);
        // The agents the key may act as ride with it too; a key's agents never change, so the cache cannot go stale on them.
        const agentNames = found.agentNames?.names ?? [];
        return {
          userId: found.userId,
          keyId: found.keyId,
          ...(limits ? { limits } : {}),
          ...(found.agentName !== undefined ? { agentName: found.agentName } : {}),
          ...(agentNames.length ? { agentNames } : {}),
        };
      } catch (err) {
        // Anything but "unknown key" (ledger down, deadline) is not cached and fails the request.
        if ((err as { code?: number }).code !== GrpcStatus.UNAUTHENTICATED) throw err;
        setOptions.ttl = opts.negativeTtlMs;
        return false;
      }
    },
  });

  return async (req, res, next) => {
    const parsed = parseBearer(req.headers.authorization);
    if (!("key" in parsed)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="agentic-api"');
      sendErrorResponse(res, new HttpError(401, parsed.code, parsed.error, KEY_REQUIRED_HINT));
      return;
    }
    const key = parsed.key;
    if (!API_KEY_PATTERN.test(key)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="agentic-api", error="invalid_token"');
      sendErrorResponse(res, new HttpError(401, "INVALID_API_KEY", "the API key is malformed", MALFORMED_KEY_HINT));
      return;
    }
    const hash = createHash("sha256").update(key).digest("hex");
    // A fresh entry is read as it is; only a miss (or an expired entry) waits for the ledger.
    let caller = cache.get(hash);
    if (caller === undefined) {
      try {
        caller = await cache.fetch(hash, { context: key });
      } catch (err) {
        return next(err);
      }
    }
    if (caller === undefined) return next(new Error("API key lookup returned no answer"));
    if (caller === false) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="agentic-api", error="invalid_token"');
      sendErrorResponse(res, new HttpError(401, "INVALID_API_KEY", "the API key is invalid or revoked", INVALID_KEY_HINT));
      return;
    }
    res.locals.caller = caller;
    res.locals.apiKeyHash = hash;
    next();
  };
}
