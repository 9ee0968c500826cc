// String formats a contract field may declare (FieldContract.format), each with a check and a
// readable description for error messages. Checks use the runtime's Intl data where it has some.
import { parseMailbox } from "./mailbox";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

/** One mailbox: `user@host.tld`, optionally as `Name <user@host.tld>` (RFC 5322; never a list, a group or a name with a separator). */
function isEmail(value: string): boolean {
  return parseMailbox(value) !== undefined;
}

/** An absolute http(s) URL: the only kind a provider can fetch. */
function isUri(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

function isCalendarDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function isDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** ISO 8601 date and time; the offset is optional (a local time is read in the field's zone). */
function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  return Number(m[4]) <= 23 && Number(m[5]) <= 59 && Number(m[6] ?? 0) <= 59;
}

function isIanaTimezone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function isLanguageTag(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });
function isCountryCode(value: string): boolean {
  if (!/^[A-Za-z]{2}$/.test(value)) return false;
  const name = regionNames.of(value.toUpperCase());
  return name !== undefined && name !== value.toUpperCase() && name !== "Unknown Region";
}

const currencies = new Set(Intl.supportedValuesOf("currency"));
function isCurrencyCode(value: string): boolean {
  return currencies.has(value.toUpperCase()) && /^[A-Za-z]{3}$/.test(value);
}

interface Format {
  check(value: string): boolean;
  /** What a valid value looks like, for the error message. */
  expected: string;
}

const FORMATS: Readonly<Record<string, Format>> = {
  email: {
    check: isEmail,
    expected: "one email address like ada@example.com or Ada Lovelace <ada@example.com> (a display name may not hold , ; < > @ or quotes)",
  },
  uri: { check: isUri, expected: "an absolute http(s) URL" },
  "date-time": { check: isDateTime, expected: "an ISO 8601 date-time like 2025-06-14T09:00:00 (offset optional)" },
  date: { check: isDate, expected: "a date like 2025-06-14" },
  "iana-timezone": { check: isIanaTimezone, expected: "an IANA time zone like Europe/Lisbon" },
  "language-tag": { check: isLanguageTag, expected: "a BCP 47 language tag like de or pt-BR" },
  "country-code": { check: isCountryCode, expected: "an ISO 3166-1 alpha-2 country code like PT" },
  "currency-code": { check: isCurrencyCode, expected: "an ISO 4217 currency code like EUR" },
};

/** Undefined when `value` has the format (or the format is unknown to this executor), else what was expected. */
export function formatProblem(format: string, value: string): string | undefined {
  const f = FORMATS[format];
  if (!f || f.check(value)) return undefined;
  return `must be ${f.expected}`;
}
