// timeapi.io-style time API (geo.time.current, geo.time.convert): GET /api/timezone/zone?timeZone=
// gives the local time, UTC offset and DST state; POST /api/conversion/converttimezone converts a
// wall time between zones. Zones are IANA ids or, where the seller resolves them, place names. It
// takes no API key. Errors are plain-text 400s ("Invalid Timezone").
import type { RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import { ProviderError } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { defineProvider } from "./provider-table";

const KEY = "timeapi";

const LOCAL_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?$/;
const OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * The vendor's `yyyy-MM-dd HH:mm:ss` for an ISO 8601 input: a wall time as given, or an instant
 * (with `Z` or an offset) as its UTC wall time, flagged so it is converted from UTC.
 */
function wallTime(datetime: string, providerKey: string): { local: string; utc: boolean } {
  const text = datetime.trim();
  const pad = (n: number) => String(n).padStart(2, "0");
  if (OFFSET.test(text)) {
    const d = new Date(text);
    if (Number.isNaN(d.getTime())) throw inputRefusal(providerKey, "`datetime` is not a valid ISO 8601 date-time");
    return {
      local: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
      utc: true,
    };
  }
  const m = LOCAL_TIME.exec(text);
  if (!m)
    throw new ProviderError(
      "invalid_input",
      providerKey,
      "`datetime` must be ISO 8601, e.g. 2026-03-08T01:30:00 (read in the source zone) or 2026-03-08T06:30:00Z",
      { blame: "input" },
    );
  return { local: `${m[1]} ${m[2]}${(m[3] ?? ":00").slice(0, 3)}`, utc: false };
}

/** `+05:30` from seconds east of UTC. */
function formatOffset(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** `2026-03-08T03:00:00` from timeapi's local times (which may carry 7 fractional digits). */
function toSeconds(local: string): string | undefined {
  const m = LOCAL_TIME.exec(local);
  return m ? `${m[1]}T${m[2]}${(m[3] ?? ":00").slice(0, 3)}` : undefined;
}

/** timeapi's answer, once it is a 200 (its errors are plain text). */
function bodyOf(res: RailResponse): unknown {
  if (res.status !== 200) throw vendorError(KEY, res, typeof res.body === "string" ? { message: res.body } : {});
  return res.body;
}

export const timeapiProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://timeapi.io" },
  keyless: true,
  capabilities: {
    "geo.time.current": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const zone = read.string("timezone") ?? read.string("location");
        if (!zone) throw inputRefusal(KEY, "give `timezone` (IANA id) or `location` (place name)");
        return { method: "GET", url: `${ctx.baseUrl}/api/timezone/zone?timeZone=${encodeURIComponent(zone)}`, headers: {} };
      },
      parse(res, input) {
        const b = bodyOf(res);
        const zone = stringField(b, "timeZone");
        const local = toSeconds(stringField(b, "currentLocalTime") ?? "");
        const offset =
          isRecord(b) && isRecord(b.currentUtcOffset) && typeof b.currentUtcOffset.seconds === "number"
            ? b.currentUtcOffset.seconds
            : undefined;
        if (!zone || !local || offset === undefined || !isRecord(b))
          throw invalidResponse(KEY, res, "without timeZone, currentLocalTime and currentUtcOffset");
        const utcOffset = formatOffset(offset);
        const location = new InputReader(KEY, input).string("location");
        return {
          status: "completed",
          data: {
            timezone: zone,
            datetime: `${local}${utcOffset}`,
            utcOffset,
            isDst: b.isDayLightSavingActive === true,
            ...(location ? { location } : {}),
          },
        };
      },
    },
    "geo.time.convert": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const from = read.string("fromTimezone") ?? read.string("fromLocation");
        const to = read.string("toTimezone") ?? read.string("toLocation");
        if (!from || !to)
          throw new ProviderError("invalid_input", KEY, "give `fromTimezone` or `fromLocation`, and `toTimezone` or `toLocation`", {
            blame: "input",
          });
        const wall = wallTime(read.string("datetime", true), KEY);
        return {
          method: "POST",
          url: `${ctx.baseUrl}/api/conversion/converttimezone`,
          headers: {},
          // An instant (with an offset) is converted from its UTC wall time; a wall time is read in the source zone.
          body: { fromTimeZone: wall.utc ? "UTC" : from, dateTime: wall.local, toTimeZone: to, dstAmbiguity: "" },
        };
      },
      parse(res, input) {
        const b = bodyOf(res);
        const result = isRecord(b) && isRecord(b.conversionResult) ? b.conversionResult : undefined;
        const source = toSeconds(stringField(b, "fromDateTime") ?? "");
        const target = toSeconds(stringField(result, "dateTime") ?? "");
        if (!result || !source || !target) throw invalidResponse(KEY, res, "without fromDateTime and conversionResult");
        const read = new InputReader(KEY, input);
        const given = read.string("datetime") ?? "";
        // For an instant the source is what the caller gave, not the UTC wall time the vendor converted from.
        const instant = OFFSET.test(given.trim());
        return {
          status: "completed",
          data: {
            source: instant
              ? { datetime: given.trim(), timezone: read.string("fromTimezone") ?? read.string("fromLocation") ?? null }
              : { datetime: source, timezone: stringField(b, "fromTimezone") ?? null },
            target: {
              datetime: target,
              timezone: stringField(result, "timeZone") ?? stringField(b, "toTimeZone") ?? null,
              isDst: result.dstActive === true,
            },
          },
        };
      },
    },
  },
});
