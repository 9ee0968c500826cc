// Request validation: each check returns the cleaned value or throws an INVALID_ARGUMENT LedgerError
// naming the field, so the RPC files stay one line per field.
import { invalidField } from "./errors";
import { CREDIT_MOVEMENT_KINDS, USAGE_KINDS, type ApiKeyLimits, type CreditMovementKind, type UsageKind } from "./types";

/** Upper bound of any single amount: far above any real top-up, far below 2^53 (exact in a double). */
export const MAX_CREDITS = 1_000_000_000_000;

/** Longest agent name the executor records (its MAX_AGENT_NAME_LENGTH): what holds, quotes, policies and filters accept. */
export const MAX_AGENT_NAME_LENGTH = 100;

// Printable, no whitespace or control characters.
const TOKEN = /^[^\s\p{C}]+$/u;

/** An identifier (user, hold, grant, key id): 1..128 printable characters without spaces. */
export function requireId(field: string, value: string): string {
  if (!value) throw invalidField(field, `${field} is required.`, `Send a non-empty ${field}.`);
  if (value.length > 128 || !TOKEN.test(value)) {
    throw invalidField(field, `${field} must be 1..128 printable characters without spaces.`, `Fix ${field}.`);
  }
  return value;
}

/** A positive whole number of credits, at most MAX_CREDITS. */
export function requireCredits(field: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_CREDITS) {
    throw invalidField(field, `${field} must be a whole number of credits from 1 to ${MAX_CREDITS}.`, `Fix ${field}.`);
  }
  return value;
}

/** A duration in ms; 0 means `fallback`; otherwise within [min, max]. */
export function durationOrDefault(field: string, value: number, fallback: number, min: number, max: number): number {
  if (value === 0) return fallback;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw invalidField(field, `${field} must be 0 (default) or from ${min} to ${max} ms.`, `Fix ${field}.`);
  }
  return value;
}

/** A page size: 0 means `fallback`; otherwise 1..max. */
export function limitOrDefault(field: string, value: number, fallback: number, max: number): number {
  if (value === 0) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw invalidField(field, `${field} must be from 1 to ${max}.`, `Send a ${field} from 1 to ${max}, or omit it for ${fallback}.`);
  }
  return value;
}

/** Most a key's limits may say: high enough for any real client, low enough to be a limit at all. */
export const MAX_KEY_LIMITS = { requestsPerSecond: 10_000, burst: 100_000, maxInFlight: 10_000 } as const;

/**
 * A key's limits: each field absent or a whole number from 1 to its maximum. Absent fields are left
 * out; undefined when none is set (then the key has no limits of its own).
 */
export function optionalKeyLimits(limits: ApiKeyLimits | undefined): ApiKeyLimits | undefined {
  const cleaned: ApiKeyLimits = {};
  const fields = [
    ["requestsPerSecond", "limits.requests_per_second"],
    ["burst", "limits.burst"],
    ["maxInFlight", "limits.max_in_flight"],
  ] as const;
  for (const [name, field] of fields) {
    const value = limits?.[name];
    if (value === undefined) continue;
    const max = MAX_KEY_LIMITS[name];
    if (!Number.isInteger(value) || value < 1 || value > max)
      throw invalidField(
        field,
        `${field} must be a whole number from 1 to ${max}.`,
        `Fix ${field}, or leave it unset for the gateway's default.`,
      );
    cleaned[name] = value;
  }
  // A burst below the rate could never be reached (the gateway would raise it to the rate): refuse the contradiction.
  if (cleaned.burst !== undefined && cleaned.requestsPerSecond !== undefined && cleaned.burst < cleaned.requestsPerSecond) {
    throw invalidField(
      "limits.burst",
      "limits.burst must be at least limits.requests_per_second.",
      "Raise limits.burst, or leave it unset.",
    );
  }
  return Object.keys(cleaned).length ? cleaned : undefined;
}

/** Free text shown to people (key names, grant reasons): at most `max` characters, trimmed. */
export function optionalText(field: string, value: string, max = 200): string {
  const text = value.trim();
  if (text.length > max) throw invalidField(field, `${field} must be at most ${max} characters.`, `Shorten ${field}.`);
  return text;
}

/** Required free text (a movement's reason): 1..`max` characters once trimmed, no control characters. */
export function requireText(field: string, value: string, max: number): string {
  const text = value.trim();
  if (!text) throw invalidField(field, `${field} is required.`, `Say in ${field} why, in a few words.`);
  if (text.length > max || /\p{Cc}/u.test(text))
    throw invalidField(field, `${field} must be at most ${max} characters, without control characters.`, `Shorten ${field}.`);
  return text;
}

/** One of `allowed`, or INVALID_ARGUMENT naming the field and the allowed values. */
export function requireOneOf<T extends string>(field: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw invalidField(field, `${field} must be one of ${allowed.join(", ")}.`, `Fix ${field}.`);
  return value as T;
}

/** A credit movement's kind and signed amount: a grant adds 1..MAX_CREDITS; a refund or an adjustment moves ±1..MAX_CREDITS. */
export function requireMovement(kind: string, amountCredits: number): { kind: CreditMovementKind; amountCredits: number } {
  const movement = requireOneOf("kind", kind, CREDIT_MOVEMENT_KINDS);
  if (movement === "grant") return { kind: movement, amountCredits: requireCredits("amount_credits", amountCredits) };
  if (!Number.isSafeInteger(amountCredits) || amountCredits === 0 || Math.abs(amountCredits) > MAX_CREDITS) {
    throw invalidField(
      "amount_credits",
      `amount_credits of a ${movement} must be a whole number of credits from -${MAX_CREDITS} to ${MAX_CREDITS}, not 0.`,
      "Fix amount_credits.",
    );
  }
  return { kind: movement, amountCredits };
}

/** An optional exact-match filter of ListUsage (unset or empty: no filter), at most `max` characters. */
export function optionalFilter(field: string, value: string | undefined, max = 128): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (value.length > max || /\p{Cc}/u.test(value))
    throw invalidField(field, `${field} must be at most ${max} characters, without control characters.`, `Fix ${field}.`);
  return value;
}

/** ListUsage's kind filter: unset, or a usage kind. */
export function optionalUsageKind(value: string | undefined): UsageKind | undefined {
  return value === undefined || value === "" ? undefined : requireOneOf("kind", value, USAGE_KINDS);
}

/** ListUsage's time range [from, to): either may be unset; both set, `from` must be before `to`. */
export function optionalTimeRange(from: Date | undefined, to: Date | undefined): { from?: Date; to?: Date } {
  for (const [field, at] of [
    ["from", from],
    ["to", to],
  ] as const) {
    if (at !== undefined && Number.isNaN(at.getTime())) throw invalidField(field, `${field} is not a valid time.`, `Fix ${field}.`);
  }
  if (from && to && from.getTime() >= to.getTime())
    throw invalidField("to", "to must be after from.", "Send from before to (the range is [from, to)).");
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/** An Idempotency-Key as clients send it: 1..255 printable ASCII characters. */
export function requireIdempotencyKey(field: string, value: string): string {
  if (!value || value.length > 255 || !/^[\x20-\x7e]+$/.test(value)) {
    throw invalidField(
      field,
      `${field} must be 1..255 printable ASCII characters.`,
      "Send a UUID or another unique string as Idempotency-Key.",
    );
  }
  return value;
}

/** A vendor resource id (an inbox address): 1..512 printable characters without spaces. */
export function requireResourceId(field: string, value: string): string {
  if (!value) throw invalidField(field, `${field} is required.`, `Send a non-empty ${field}.`);
  if (value.length > 512 || !TOKEN.test(value))
    throw invalidField(field, `${field} must be 1..512 printable characters without spaces.`, `Fix ${field}.`);
  return value;
}

/** The longest range of days one reconciliation covers. */
export const MAX_RECONCILIATION_DAYS = 366;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A UTC day "YYYY-MM-DD" as its midnight; throws naming the field for anything else. */
function utcDayStart(field: string, value: string): Date {
  const at = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00.000Z`) : undefined;
  if (!at || Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== value) {
    throw invalidField(field, `${field} must be a UTC day, YYYY-MM-DD.`, `Send ${field} like 2026-11-01.`);
  }
  return at;
}

/** Days `from`..`to`, both inclusive, as the half-open range [from 00:00, to + 1 day 00:00), at most MAX_RECONCILIATION_DAYS. */
export function requireDayRange(from: string, to: string): { from: Date; to: Date } {
  const start = utcDayStart("from_date", from);
  const end = new Date(utcDayStart("to_date", to).getTime() + DAY_MS);
  const days = (end.getTime() - start.getTime()) / DAY_MS;
  if (days < 1) throw invalidField("to_date", "to_date is before from_date.", "Send from_date on or before to_date.");
  if (days > MAX_RECONCILIATION_DAYS)
    throw invalidField("to_date", `A range covers at most ${MAX_RECONCILIATION_DAYS} days.`, "Ask for a shorter range.");
  return { from: start, to: end };
}
