// Request validation: each check returns the cleaned value or throws an INVALID_ARGUMENT LedgerError
// naming the field, so the RPC files stay one line per field.
import { invalidField } from "./errors";

/** Upper bound of any single amount: far above any real top-up, far below 2^53 (exact in a double). */
export const MAX_CREDITS = 1_000_000_000_000;

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

/** Free text shown to people (key names, grant reasons): at most `max` characters, trimmed. */
export function optionalText(field: string, value: string, max = 200): string {
  const text = value.trim();
  if (text.length > max) throw invalidField(field, `${field} must be at most ${max} characters.`, `Shorten ${field}.`);
  return text;
}

/** An Idempotency-Key as clients send it: 1..255 printable ASCII characters. */
export function requireIdempotencyKey(field: string, value: string): string {
  if (!value || value.length > 255 || !/^[\x20-\x7e]+$/.test(value)) {
    throw invalidField(field, `${field} must be 1..255 printable ASCII characters.`, "Send a UUID or another unique string as Idempotency-Key.");
  }
  return value;
}

/** A vendor resource id (an inbox address): 1..512 printable characters without spaces. */
export function requireResourceId(field: string, value: string): string {
  if (!value) throw invalidField(field, `${field} is required.`, `Send a non-empty ${field}.`);
  if (value.length > 512 || !TOKEN.test(value)) throw invalidField(field, `${field} must be 1..512 printable characters without spaces.`, `Fix ${field}.`);
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
  if (days > MAX_RECONCILIATION_DAYS) throw invalidField("to_date", `A range covers at most ${MAX_RECONCILIATION_DAYS} days.`, "Ask for a shorter range.");
  return { from: start, to: end };
}
