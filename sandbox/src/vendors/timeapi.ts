// Time API stand-in (timeapi.io wire format; free when direct, paid on the MPP mount): zone info with the current local time,
// offsets and DST interval; current time; conversion between zones. `timeZone` takes an IANA id or
// a known place name. Errors are plain-text 400s ("Invalid Timezone"), as timeapi.io answers.
import {
  isObject,
  type VendorContext,
  type VendorDefinition,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
} from "../http/vendor";
import {
  formatLocal,
  instantOf,
  isDst,
  localTimeAt,
  offsetMinutes,
  parseLocal,
  resolveZone,
  standardOffsetMinutes,
  transitions,
  type LocalTime,
} from "./time-zones";

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function text(status: number, message: string): VendorReply {
  return { status, body: message };
}

export function timeapiVendor(priceAtomic: string): VendorDefinition {
  return {
    key: "timeapi",
    // timeapi.io is a free public API: its direct mount takes no key.
    price: { amountAtomic: priceAtomic, description: "Time zone lookup" },
    errorReply: text,
    routes: [
      { method: "GET", path: "/api/timezone/zone", handle: zoneInfo },
      { method: "GET", path: "/api/time/current/zone", handle: currentTime },
      { method: "POST", path: "/api/conversion/converttimezone", handle: convert },
    ],
  };
}

/** timeapi.io's offset object. */
function offset(minutes: number) {
  const seconds = minutes * 60;
  return { seconds, milliseconds: seconds * 1000, ticks: seconds * 10_000_000, nanoseconds: seconds * 1_000_000_000 };
}

/** timeapi.io's time object for a wall time. */
function timeObject(local: LocalTime, zone: string, dstActive: boolean) {
  const pad = (n: number) => String(n).padStart(2, "0");
  return {
    year: local.year,
    month: local.month,
    day: local.day,
    hour: local.hour,
    minute: local.minute,
    seconds: local.second,
    milliSeconds: local.millisecond,
    dateTime: formatLocal(local),
    date: `${pad(local.month)}/${pad(local.day)}/${local.year}`,
    time: `${pad(local.hour)}:${pad(local.minute)}`,
    timeZone: zone,
    dayOfWeek: DAYS[new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay()],
    dstActive,
  };
}

function zoneParam(req: VendorRequest): string | VendorReply {
  const raw = req.query.timeZone ?? req.query.timezone;
  if (!raw) return text(400, "The timeZone field is required.");
  return resolveZone(raw) ?? text(400, "Invalid Timezone");
}

function zoneInfo(req: VendorRequest, ctx: VendorContext): VendorReply {
  const zone = zoneParam(req);
  if (typeof zone !== "string") return zone;
  const now = ctx.now();
  const year = now.getUTCFullYear();
  const current = offsetMinutes(zone, now);
  const standard = standardOffsetMinutes(zone, year);
  const changes = transitions(zone, year);
  // DST starts at the transition into the larger offset and ends at the one back to standard.
  const start = changes.find((t) => offsetMinutes(zone, t) > standard);
  const end = changes.find((t) => offsetMinutes(zone, t) === standard);
  const dstOffset = start ? offsetMinutes(zone, start) : standard;
  const dstName = start
    ? (new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "short" })
        .formatToParts(start)
        .find((p) => p.type === "timeZoneName")?.value ?? null)
    : null;
  const durationS = start && end ? Math.round(Math.abs(end.getTime() - start.getTime()) / 1000) : 0;
  return {
    status: 200,
    body: {
      timeZone: zone,
      currentLocalTime: formatLocal(localTimeAt(zone, now)),
      currentUtcOffset: offset(current),
      standardUtcOffset: offset(standard),
      hasDayLightSaving: changes.length > 0,
      isDayLightSavingActive: isDst(zone, now),
      dstInterval: start
        ? {
            dstName,
            dstOffsetToUtc: offset(dstOffset),
            dstOffsetToStandardTime: offset(dstOffset - standard),
            dstStart: start.toISOString().replace(/\.\d{3}Z$/, "Z"),
            dstEnd: end ? end.toISOString().replace(/\.\d{3}Z$/, "Z") : null,
            dstDuration: {
              days: Math.floor(durationS / 86_400),
              hours: Math.floor((durationS % 86_400) / 3600),
              minutes: Math.floor((durationS % 3600) / 60),
              seconds: durationS % 60,
              totalSeconds: durationS,
            },
          }
        : null,
    },
  };
}

function currentTime(req: VendorRequest, ctx: VendorContext): VendorReply {
  const zone = zoneParam(req);
  if (typeof zone !== "string") return zone;
  const now = ctx.now();
  return { status: 200, body: timeObject(localTimeAt(zone, now), zone, isDst(zone, now)) };
}

function convert(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b)) return text(400, "A request body is required.");
  if (typeof b.fromTimeZone !== "string" || typeof b.toTimeZone !== "string")
    return text(400, "The fromTimeZone and toTimeZone fields are required.");
  const from = resolveZone(b.fromTimeZone);
  const to = resolveZone(b.toTimeZone);
  if (!from || !to) return text(400, "Invalid Timezone");
  const local = typeof b.dateTime === "string" ? parseLocal(b.dateTime) : undefined;
  if (!local) return text(400, "Invalid DateTime. Use the format yyyy-MM-dd HH:mm:ss.");
  const ambiguity = b.dstAmbiguity ?? "";
  if (ambiguity !== "" && ambiguity !== "earlier" && ambiguity !== "later")
    return text(400, 'dstAmbiguity must be empty, "earlier" or "later".');
  const instant = instantOf(from, local, ambiguity === "later" ? "later" : "earlier");
  return {
    status: 200,
    body: {
      fromTimezone: from,
      // The wall time actually used: a time in a spring-forward gap is moved forward.
      fromDateTime: formatLocal(localTimeAt(from, instant)),
      toTimeZone: to,
      conversionResult: timeObject(localTimeAt(to, instant), to, isDst(to, instant)),
    },
  };
}

/** timeapi.io is free: no API key on its direct mount. */
export const timeapiSandbox = {
  key: "timeapi",
  priceAtomic: "1000",
  create: (opts) => timeapiVendor(opts.priceAtomic),
} as const satisfies SandboxVendor;
