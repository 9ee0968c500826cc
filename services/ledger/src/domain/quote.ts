// Quotes: credits reserved for one priced request until it is executed or expires. A quote's
// reservation is an ordinary hold (id RESERVATION_PREFIX + quote id) with the quote's spend attribution,
// so an open reservation counts against the budgets its execute would spend (a key's open quotes are
// also capped); the expiry sweeper gives it back like any hold. An execute naming the
// quote ends the reservation (journal release) and places its own hold in the same store operation,
// so the credits never leave the reservation for anyone else. Pure functions.
import type { Hold } from "./types";

/** Hold ids of quote reservations; executor hold ids are attempt ids ("attempt_…"), never this. */
export const RESERVATION_PREFIX = "quote:";

export interface QuoteRecord {
  quoteId: string;
  userId: string;
  keyId: string;
  agentName?: string;
  capabilityKey: string;
  routeKey: string;
  amountCredits: number;
  requestHash: string;
  /** The reservation hold's id. */
  reservationHoldId: string;
  createdAt: Date;
  expiresAt: Date;
  /** The execute hold that drew it, once used. */
  usedByHoldId?: string;
}

export type QuoteStatus = "open" | "used" | "expired" | "released";

export interface CreateQuoteCommand extends Omit<QuoteRecord, "reservationHoldId" | "usedByHoldId"> {
  now: Date;
}

/**
 * `insufficient`: the balance was short, nothing written. `conflict`: the id exists with another user or
 * amount. `spend_refused`: a spend policy of the key (or agent) would be exceeded, nothing written.
 * `too_many_open_quotes`: the key has MAX_OPEN_QUOTES_PER_KEY open quotes already, nothing written.
 */
export type CreateQuoteResult =
  | { status: "created" | "replayed"; quote: QuoteRecord; wallet: import("./types").Wallet }
  | { status: "conflict"; quote: QuoteRecord }
  | { status: "insufficient"; wallet: import("./types").Wallet }
  | { status: "spend_refused"; refusal: import("./spend-policy").SpendRefusal }
  | { status: "too_many_open_quotes"; open: number; limit: number };

/** Open (unused, unexpired) quotes one API key may have at once: each reserves credits until it is executed or expires. */
export const MAX_OPEN_QUOTES_PER_KEY = 20;

export const reservationHoldId = (quoteId: string): string => RESERVATION_PREFIX + quoteId;

/** Who a quote's execute would spend it as: its key, its agent, its capability (the reservation's spend attribution). */
export function quoteSpender(q: Pick<QuoteRecord, "keyId" | "agentName" | "capabilityKey">): import("./spend-policy").SpendAttribution {
  return { keyId: q.keyId, ...(q.agentName !== undefined ? { agentName: q.agentName } : {}), capabilityKey: q.capabilityKey };
}

/** A quote's status from its record and its reservation's hold (read in the same operation). */
export function quoteStatus(quote: QuoteRecord, reservation: Pick<Hold, "state" | "expiresAt"> | null, now: Date): QuoteStatus {
  if (quote.usedByHoldId) return "used";
  if (!reservation || reservation.state === "expired") return "expired";
  if (reservation.state !== "held") return "released";
  return reservation.expiresAt.getTime() <= now.getTime() ? "expired" : "open";
}

/** Why a hold may not draw a quote, or null when it may. */
export type QuoteRefusal = "not_found" | "used" | "expired" | "amount_mismatch";

export function decideQuoteDraw(
  quote: QuoteRecord | null,
  reservation: Pick<Hold, "state" | "expiresAt"> | null,
  cmd: { userId: string; amountCredits: number; now: Date },
): QuoteRefusal | null {
  if (!quote || quote.userId !== cmd.userId) return "not_found";
  const status = quoteStatus(quote, reservation, cmd.now);
  if (status === "used") return "used";
  if (status !== "open") return "expired";
  if (quote.amountCredits !== cmd.amountCredits) return "amount_mismatch";
  return null;
}
