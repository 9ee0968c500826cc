// Connection timers: production's defaults, each variable overriding its own, a bad value named, and
// the grace a recycled connection keeps for its calls derived from the longest call.
import { serverOptions } from "./server";
import { CONNECTION_AGE_GRACE_MARGIN_MS, DEFAULT_LONGEST_CALL_MS, grpcTimings } from "./timings";

describe("grpcTimings", () => {
  it("defaults to a ping every 30 s answered within 10 s and connections recycled every 5 minutes", () => {
    expect(grpcTimings({})).toEqual({ keepaliveTimeMs: 30_000, keepaliveTimeoutMs: 10_000, maxConnectionAgeMs: 300_000 });
  });

  it("takes each timer from its variable", () => {
    expect(grpcTimings({ GRPC_KEEPALIVE_TIME_MS: "5000", GRPC_MAX_CONNECTION_AGE_MS: "60000" })).toEqual({
      keepaliveTimeMs: 5_000,
      keepaliveTimeoutMs: 10_000,
      maxConnectionAgeMs: 60_000,
    });
  });

  it("names a variable that is not a positive whole number", () => {
    expect(() => grpcTimings({ GRPC_KEEPALIVE_TIMEOUT_MS: "0" })).toThrow(/GRPC_KEEPALIVE_TIMEOUT_MS must be a positive whole number/);
    expect(() => grpcTimings({ GRPC_KEEPALIVE_TIME_MS: "30s" })).toThrow(/GRPC_KEEPALIVE_TIME_MS/);
  });
});

describe("serverOptions", () => {
  it("keeps a recycled connection open for the longest call the server accepts, and a margin", () => {
    expect(serverOptions({ longestCallMs: 89_000 }, {})["grpc.max_connection_age_grace_ms"]).toBe(89_000 + CONNECTION_AGE_GRACE_MARGIN_MS);
    expect(serverOptions({}, {})["grpc.max_connection_age_grace_ms"]).toBe(DEFAULT_LONGEST_CALL_MS + CONNECTION_AGE_GRACE_MARGIN_MS);
  });
});
