import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { useSandboxRoutes } from "./sandbox-route.fixture";
import { timeapiProvider } from "./timeapi";
import { providerAdapter } from "./registry";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(timeapiProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("time API adapter (geo.time.current, geo.time.convert)", () => {
  it("builds the zone lookup and the conversion in timeapi.io's format", () => {
    expect(adapter.buildRequest("geo.time.current", { location: "New York" }, { baseUrl: "https://timeapi.io" })).toEqual({
      method: "GET",
      url: "https://timeapi.io/api/timezone/zone?timeZone=New%20York",
      headers: {},
    });
    expect(
      adapter.buildRequest(
        "geo.time.convert",
        { datetime: "2026-03-08T01:30", fromTimezone: "America/New_York", toTimezone: "Asia/Kolkata" },
        { baseUrl: "https://timeapi.io" },
      ),
    ).toEqual({
      method: "POST",
      url: "https://timeapi.io/api/conversion/converttimezone",
      headers: {},
      body: { fromTimeZone: "America/New_York", dateTime: "2026-03-08 01:30:00", toTimeZone: "Asia/Kolkata", dstAmbiguity: "" },
    });
    expect(() => adapter.buildRequest("geo.time.current", {}, { baseUrl: "https://timeapi.io" })).toThrow(
      expect.objectContaining({ kind: "invalid_input" }),
    );
    expect(
      adapter.buildRequest(
        "geo.time.convert",
        { datetime: "2026-03-08T07:00:00+01:00", fromTimezone: "Europe/Paris", toLocation: "Tokyo" },
        { baseUrl: "https://timeapi.io" },
      ).body,
    ).toEqual({ fromTimeZone: "UTC", dateTime: "2026-03-08 06:00:00", toTimeZone: "Tokyo", dstAmbiguity: "" });
    expect(() =>
      adapter.buildRequest(
        "geo.time.convert",
        { datetime: "yesterday", fromTimezone: "UTC", toTimezone: "UTC" },
        { baseUrl: "https://timeapi.io" },
      ),
    ).toThrow(expect.objectContaining({ kind: "invalid_input" }));
    expect(() =>
      adapter.buildRequest("geo.time.convert", { datetime: "2026-03-08T01:30", fromTimezone: "UTC" }, { baseUrl: "https://timeapi.io" }),
    ).toThrow(/toTimezone/);
  });

  it("normalizes the zone answer into an ISO time with offset, and maps the plain-text 400", () => {
    const body = {
      timeZone: "Asia/Kolkata",
      currentLocalTime: "2026-11-22T12:30:05.1234567",
      currentUtcOffset: { seconds: 19800 },
      isDayLightSavingActive: false,
    };
    expect(adapter.parseResponse("geo.time.current", response(200, body), { timezone: "Asia/Kolkata" }).data).toEqual({
      timezone: "Asia/Kolkata",
      datetime: "2026-11-22T12:30:05+05:30",
      utcOffset: "+05:30",
      isDst: false,
    });
    expect(() => adapter.parseResponse("geo.time.current", response(400, "Invalid Timezone"), {})).toThrow(
      expect.objectContaining({ blame: "input", message: expect.stringContaining("Invalid Timezone") }),
    );
  });

  it("gets New York's time right at the 2026 spring-forward, over MPP", async () => {
    routes.sandbox().control.setVendorClock(new Date("2026-03-08T07:00:00Z"));
    const { res, result } = await routes.execute("timeapi", "mpp", "geo.time.current", { location: "New York" });
    expect(res.payment).toMatchObject({ rail: "mpp", amountAtomic: "1000" });
    expect(result.data).toEqual({
      timezone: "America/New_York",
      datetime: "2026-03-08T03:00:00-04:00",
      utcOffset: "-04:00",
      isDst: true,
      location: "New York",
    });
  });

  it("converts the last EST minute before the 2026-03-08 switch and a half-hour zone, over MPP", async () => {
    const { result } = await routes.execute("timeapi", "mpp", "geo.time.convert", {
      datetime: "2026-03-08 01:59",
      fromLocation: "New York",
      toTimezone: "Asia/Kolkata",
    });
    expect(result.data).toEqual({
      source: { datetime: "2026-03-08T01:59:00", timezone: "America/New_York" },
      target: { datetime: "2026-03-08T12:29:00", timezone: "Asia/Kolkata", isDst: false },
    });
  });

  it("calls the free API directly, without a key and without paying", async () => {
    const { res, result } = await routes.execute("timeapi", "direct", "geo.time.current", { timezone: "Asia/Kathmandu" });
    expect(res.payment).toEqual({ rail: "api_key" });
    expect(routes.sandbox().control.calls("timeapi")[0]?.headers.authorization).toBeUndefined();
    expect(result.data).toMatchObject({ timezone: "Asia/Kathmandu", utcOffset: "+05:45", isDst: false });
  });

  it("converts an instant (with an offset) and reports it as given", async () => {
    const { result } = await routes.execute("timeapi", "mpp", "geo.time.convert", {
      datetime: "2026-03-08T07:00:00Z",
      fromTimezone: "America/New_York",
      toTimezone: "America/New_York",
    });
    expect(result.data).toEqual({
      source: { datetime: "2026-03-08T07:00:00Z", timezone: "America/New_York" },
      target: { datetime: "2026-03-08T03:00:00", timezone: "America/New_York", isDst: true },
    });
  });

  it("converts through the 2026-11-01 fall-back (earlier occurrence, EDT)", async () => {
    const { result } = await routes.execute("timeapi", "mpp", "geo.time.convert", {
      datetime: "2026-11-01T01:30:00",
      fromTimezone: "America/New_York",
      toTimezone: "UTC",
    });
    expect(result.data).toMatchObject({ target: { datetime: "2026-11-01T05:30:00", timezone: "UTC" } });
  });
});
