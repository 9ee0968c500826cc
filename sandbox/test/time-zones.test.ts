// Real time-zone answers: DST boundaries in New York (2026-03-08 spring forward, 2026-11-01 fall
// back), a half-hour zone (Asia/Kolkata), place names, and the timeapi stand-in over MPP.
import {
  formatLocal,
  formatOffset,
  instantOf,
  isDst,
  localTimeAt,
  offsetMinutes,
  parseLocal,
  resolveZone,
  transitions,
} from "../src/vendors/time-zones";
import { mppCredential, newWallet, parsePaymentChallenges } from "./helpers/payer";
import { postJson, useSandbox } from "./helpers/sandbox";

const NY = "America/New_York";
const local = (text: string) => {
  const t = parseLocal(text);
  if (!t) throw new Error(`bad local time ${text}`);
  return t;
};

describe("time-zone arithmetic", () => {
  it("switches New York from EST to EDT at 2026-03-08 07:00Z (02:00 local)", () => {
    expect(offsetMinutes(NY, new Date("2026-03-08T06:59:59Z"))).toBe(-300);
    expect(offsetMinutes(NY, new Date("2026-03-08T07:00:00Z"))).toBe(-240);
    expect(isDst(NY, new Date("2026-03-08T06:59:59Z"))).toBe(false);
    expect(isDst(NY, new Date("2026-03-08T07:00:00Z"))).toBe(true);
    expect(formatLocal(localTimeAt(NY, new Date("2026-03-08T07:00:00Z")))).toBe("2026-03-08T03:00:00");
  });

  it("switches New York back to EST at 2026-11-01 06:00Z (02:00 EDT)", () => {
    expect(offsetMinutes(NY, new Date("2026-11-01T05:59:59Z"))).toBe(-240);
    expect(offsetMinutes(NY, new Date("2026-11-01T06:00:00Z"))).toBe(-300);
    expect(transitions(NY, 2026).map((d) => d.toISOString())).toEqual(["2026-03-08T07:00:00.000Z", "2026-11-01T06:00:00.000Z"]);
  });

  it("moves a wall time inside the spring-forward gap forward by the gap", () => {
    expect(instantOf(NY, local("2026-03-08 02:30:00")).toISOString()).toBe("2026-03-08T07:30:00.000Z");
    expect(formatLocal(localTimeAt(NY, instantOf(NY, local("2026-03-08 02:30:00"))))).toBe("2026-03-08T03:30:00");
  });

  it("resolves the repeated hour of the fall-back night as earlier (EDT) or later (EST)", () => {
    expect(instantOf(NY, local("2026-11-01 01:30:00"), "earlier").toISOString()).toBe("2026-11-01T05:30:00.000Z");
    expect(instantOf(NY, local("2026-11-01 01:30:00"), "later").toISOString()).toBe("2026-11-01T06:30:00.000Z");
  });

  it("keeps Asia/Kolkata at +05:30 all year, without DST", () => {
    for (const at of ["2026-01-15T12:00:00Z", "2026-07-15T12:00:00Z"]) {
      expect(formatOffset(offsetMinutes("Asia/Kolkata", new Date(at)))).toBe("+05:30");
      expect(isDst("Asia/Kolkata", new Date(at))).toBe(false);
    }
    expect(transitions("Asia/Kolkata", 2026)).toEqual([]);
    expect(formatLocal(localTimeAt("Asia/Kolkata", new Date("2026-03-08T07:00:00Z")))).toBe("2026-03-08T12:30:00");
  });

  it("resolves place names and IANA ids in any case, and nothing else", () => {
    expect(resolveZone("Mumbai")).toBe("Asia/Kolkata");
    expect(resolveZone("Paris, France")).toBe("Europe/Paris");
    expect(resolveZone("america/new_york")).toBe("America/New_York");
    expect(resolveZone("Asia/Kathmandu")).toBe("Asia/Kathmandu");
    expect(resolveZone("Atlantis")).toBeUndefined();
  });

  it("rejects wall times that do not exist on any calendar", () => {
    expect(parseLocal("2026-02-30 10:00")).toBeUndefined();
    expect(parseLocal("2026-03-08T25:00")).toBeUndefined();
    expect(parseLocal("2026-03-08T01:59")).toEqual({ year: 2026, month: 3, day: 8, hour: 1, minute: 59, second: 0, millisecond: 0 });
  });
});

describe("timeapi stand-in (paid over MPP)", () => {
  const sandbox = useSandbox();

  /** Pays the MPP challenge of a request and returns the paid answer. */
  async function paid(path: string, body?: unknown) {
    const url = `${sandbox().url}/mpp/timeapi${path}`;
    const send = (headers: Record<string, string> = {}) =>
      body === undefined
        ? fetch(url, { headers }).then(async (r) => ({
            status: r.status,
            body: r.headers.get("content-type")?.includes("json") ? await r.json() : await r.text(),
            headers: r.headers,
          }))
        : postJson(url, body, headers);
    const challenge = await send();
    expect(challenge.status).toBe(402);
    const [ch] = parsePaymentChallenges(challenge.headers.get("www-authenticate"));
    return send({ Authorization: await mppCredential(newWallet(), ch as Record<string, string>) });
  }

  it("reports New York's zone just after the 2026 spring-forward with DST active", async () => {
    sandbox().control.setVendorClock(new Date("2026-03-08T07:00:00Z"));
    const res = await paid("/api/timezone/zone?timeZone=New%20York");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      timeZone: NY,
      currentLocalTime: "2026-03-08T03:00:00",
      currentUtcOffset: { seconds: -14400 },
      standardUtcOffset: { seconds: -18000 },
      hasDayLightSaving: true,
      isDayLightSavingActive: true,
      dstInterval: { dstName: "EDT", dstStart: "2026-03-08T07:00:00Z", dstEnd: "2026-11-01T06:00:00Z" },
    });
  });

  it("converts across the fall-back night and a half-hour zone", async () => {
    const res = await paid("/api/conversion/converttimezone", {
      fromTimeZone: NY,
      dateTime: "2026-11-01 01:30:00",
      toTimeZone: "Asia/Kolkata",
      dstAmbiguity: "later",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      fromTimezone: NY,
      fromDateTime: "2026-11-01T01:30:00",
      toTimeZone: "Asia/Kolkata",
      conversionResult: { dateTime: "2026-11-01T12:00:00", dstActive: false, timeZone: "Asia/Kolkata" },
    });
  });

  it("answers an unknown zone with timeapi's plain-text 400", async () => {
    const res = await paid("/api/timezone/zone?timeZone=Atlantis");
    expect(res.status).toBe(400);
    expect(res.body).toBe("Invalid Timezone");
  });
});
