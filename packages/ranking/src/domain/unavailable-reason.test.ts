import { unavailableReasonCode } from "./unavailable-reason";

describe("unavailableReasonCode", () => {
  it("is unset for a route nothing blocks", () => {
    expect(unavailableReasonCode([], { status: "live" })).toBeUndefined();
  });

  it("names the first block, in the reporting order", () => {
    expect(unavailableReasonCode(["ROUTE_UNHEALTHY", "CREDITS_REQUIRED"], { status: "live" })).toBe("breaker_open");
    expect(unavailableReasonCode(["FEATURE_UNSUPPORTED"], { status: "live" })).toBe("missing_feature");
    expect(unavailableReasonCode(["OVER_MAX_PRICE", "CREDITS_REQUIRED"], { status: "live" })).toBe("over_max_price");
    expect(unavailableReasonCode(["CREDITS_REQUIRED"], { status: "live" })).toBe("credits_required");
    expect(unavailableReasonCode(["ROUTE_PENDING"], { status: "live" })).toBe("planned");
  });

  it("tells a capability not built yet (planned) from one that is only gated", () => {
    expect(unavailableReasonCode(["CAPABILITY_GATED"], { status: "planned" })).toBe("planned");
    expect(unavailableReasonCode(["CAPABILITY_GATED"], { status: "pending" })).toBe("planned");
    expect(unavailableReasonCode(["CAPABILITY_GATED"], { status: "recommend_only" })).toBe("gated");
    expect(unavailableReasonCode(["CAPABILITY_GATED", "ROUTE_PENDING"], { status: "live" })).toBe("gated");
  });
});
