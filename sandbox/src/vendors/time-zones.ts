// Real time-zone arithmetic on the platform's IANA database (Intl.DateTimeFormat): offsets, DST,
// local wall time ↔ instant (with gaps and overlaps), and a small place-name → zone table.

/** Place names (lowercase) the time stand-in understands besides raw IANA ids. */
const CITY_ZONES: Readonly<Record<string, string>> = {
  "new york": "America/New_York",
  nyc: "America/New_York",
  boston: "America/New_York",
  washington: "America/New_York",
  miami: "America/New_York",
  toronto: "America/Toronto",
  chicago: "America/Chicago",
  dallas: "America/Chicago",
  houston: "America/Chicago",
  "mexico city": "America/Mexico_City",
  denver: "America/Denver",
  phoenix: "America/Phoenix",
  "los angeles": "America/Los_Angeles",
  "san francisco": "America/Los_Angeles",
  seattle: "America/Los_Angeles",
  vancouver: "America/Vancouver",
  honolulu: "Pacific/Honolulu",
  anchorage: "America/Anchorage",
  "st. john's": "America/St_Johns",
  "st johns": "America/St_Johns",
  "sao paulo": "America/Sao_Paulo",
  "são paulo": "America/Sao_Paulo",
  "buenos aires": "America/Argentina/Buenos_Aires",
  london: "Europe/London",
  dublin: "Europe/Dublin",
  lisbon: "Europe/Lisbon",
  paris: "Europe/Paris",
  berlin: "Europe/Berlin",
  madrid: "Europe/Madrid",
  rome: "Europe/Rome",
  amsterdam: "Europe/Amsterdam",
  zurich: "Europe/Zurich",
  stockholm: "Europe/Stockholm",
  warsaw: "Europe/Warsaw",
  prague: "Europe/Prague",
  athens: "Europe/Athens",
  helsinki: "Europe/Helsinki",
  kyiv: "Europe/Kyiv",
  kiev: "Europe/Kyiv",
  istanbul: "Europe/Istanbul",
  moscow: "Europe/Moscow",
  cairo: "Africa/Cairo",
  lagos: "Africa/Lagos",
  nairobi: "Africa/Nairobi",
  johannesburg: "Africa/Johannesburg",
  dubai: "Asia/Dubai",
  tehran: "Asia/Tehran",
  karachi: "Asia/Karachi",
  mumbai: "Asia/Kolkata",
  delhi: "Asia/Kolkata",
  "new delhi": "Asia/Kolkata",
  kolkata: "Asia/Kolkata",
  bangalore: "Asia/Kolkata",
  bengaluru: "Asia/Kolkata",
  kathmandu: "Asia/Kathmandu",
  dhaka: "Asia/Dhaka",
  bangkok: "Asia/Bangkok",
  jakarta: "Asia/Jakarta",
  singapore: "Asia/Singapore",
  "hong kong": "Asia/Hong_Kong",
  shanghai: "Asia/Shanghai",
  beijing: "Asia/Shanghai",
  taipei: "Asia/Taipei",
  manila: "Asia/Manila",
  seoul: "Asia/Seoul",
  tokyo: "Asia/Tokyo",
  perth: "Australia/Perth",
  adelaide: "Australia/Adelaide",
  brisbane: "Australia/Brisbane",
  sydney: "Australia/Sydney",
  melbourne: "Australia/Melbourne",
  auckland: "Pacific/Auckland",
  utc: "UTC",
  gmt: "UTC",
};

/** Wall-clock fields of a local time. `month` is 1-12. */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const KNOWN_ZONES = new Map(Intl.supportedValuesOf("timeZone").map((z) => [z.toLowerCase(), z]));

/** The IANA zone for an IANA id (any case) or a known place name ("Paris", "Paris, France"); undefined otherwise. */
export function resolveZone(input: string): string | undefined {
  const key = input.trim().toLowerCase();
  if (key.length === 0) return undefined;
  const city = CITY_ZONES[key] ?? CITY_ZONES[key.split(",")[0]?.trim() ?? ""];
  if (city) return city;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: input.trim() });
  } catch {
    return undefined;
  }
  // Intl accepts any case and aliases; answer in the conventional spelling.
  return (
    KNOWN_ZONES.get(key) ??
    (input.trim() === key ? key.replace(/(^|[/_-])([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase()) : input.trim())
  );
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
const partFormats = new Map<string, Intl.DateTimeFormat>();

/** UTC offset of `zone` at `instant`, in minutes east of UTC (e.g. +330 for Asia/Kolkata). */
export function offsetMinutes(zone: string, instant: Date): number {
  let fmt = offsetFormats.get(zone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
    offsetFormats.set(zone, fmt);
  }
  const name = fmt.formatToParts(instant).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
  if (!m || !m[1]) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === "-" ? -minutes : minutes;
}

/** Wall-clock time in `zone` at `instant`. */
export function localTimeAt(zone: string, instant: Date): LocalTime {
  let fmt = partFormats.get(zone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partFormats.set(zone, fmt);
  }
  const parts = Object.fromEntries(fmt.formatToParts(instant).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond: instant.getUTCMilliseconds(),
  };
}

/** Standard (non-DST) offset of `zone` in `year`: the smaller of its January and July offsets. */
export function standardOffsetMinutes(zone: string, year: number): number {
  return Math.min(offsetMinutes(zone, new Date(Date.UTC(year, 0, 1))), offsetMinutes(zone, new Date(Date.UTC(year, 6, 1))));
}

/** True when `zone` observes DST at `instant` (its offset is above the year's standard offset). */
export function isDst(zone: string, instant: Date): boolean {
  return offsetMinutes(zone, instant) > standardOffsetMinutes(zone, instant.getUTCFullYear());
}

/** Offset transitions of `zone` in `year`, found by a daily scan then bisection to the second. */
export function transitions(zone: string, year: number): Date[] {
  const found: Date[] = [];
  const end = Date.UTC(year + 1, 0, 1);
  const day = 86_400_000;
  for (let t = Date.UTC(year, 0, 1); t < end; t += day) {
    if (offsetMinutes(zone, new Date(t)) === offsetMinutes(zone, new Date(t + day))) continue;
    let lo = t;
    let hi = t + day;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (offsetMinutes(zone, new Date(mid)) === offsetMinutes(zone, new Date(lo))) lo = mid;
      else hi = mid;
    }
    found.push(new Date(hi));
  }
  return found;
}

/**
 * The instant at which `zone`'s clocks show `local`. In an overlap (clocks set back) `earlier` picks
 * the first occurrence, `later` the second; in a gap (clocks set forward) the time is moved forward
 * by the gap's length, like Temporal's "compatible" disambiguation (02:30 → 03:30 on a spring-forward day).
 */
export function instantOf(zone: string, local: LocalTime, disambiguation: "earlier" | "later" = "earlier"): Date {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second, local.millisecond);
  const before = offsetMinutes(zone, new Date(asUtc - 86_400_000));
  const after = offsetMinutes(zone, new Date(asUtc + 86_400_000));
  const candidates = [...new Set([before, after])]
    .map((o) => asUtc - o * 60_000)
    .filter((t) => offsetMinutes(zone, new Date(t)) * 60_000 === asUtc - t)
    .sort((a, b) => a - b);
  if (candidates.length > 0)
    return new Date(disambiguation === "later" ? (candidates[candidates.length - 1] as number) : (candidates[0] as number));
  // In the gap: interpret with the offset in force before the transition.
  return new Date(asUtc - before * 60_000);
}

/** `+05:30` style offset. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** `2026-03-08T03:30:00` (no offset), milliseconds only when non-zero. */
export function formatLocal(t: LocalTime): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  const base = `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
  return t.millisecond ? `${base}.${pad(t.millisecond, 3)}` : base;
}

/** Parses `YYYY-MM-DD HH:mm[:ss]` or `YYYY-MM-DDTHH:mm[:ss[.fff]]` (no offset) into a valid wall time. */
export function parseLocal(text: string): LocalTime | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(text.trim());
  if (!m) return undefined;
  const t: LocalTime = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6] ?? 0),
    millisecond: Number((m[7] ?? "0").padEnd(3, "0")),
  };
  const check = new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second));
  const valid =
    check.getUTCFullYear() === t.year &&
    check.getUTCMonth() === t.month - 1 &&
    check.getUTCDate() === t.day &&
    check.getUTCHours() === t.hour &&
    check.getUTCMinutes() === t.minute &&
    t.second < 60;
  return valid ? t : undefined;
}
