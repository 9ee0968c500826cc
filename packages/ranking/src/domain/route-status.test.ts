// The router reads the catalog's readiness of a route and lists the same blocks it always has.
import { capability, route } from "../../test/routes";
import { assessRoute, type FeasibilityContext } from "./feasibility";
import { isGatedRoute, isLiveRoute, isPendingRoute, readinessOf } from "./route-status";

const ctx: FeasibilityContext = {
  capability: { capabilityKey: "email.send", domainKey: "email", capabilityId: "send", status: capability().status },
  balanceCredits: 1_000,
  featureAsks: [],
};

describe("route status from the catalog's readiness", () => {
  it("reads a live, managed route as live and runnable", () => {
    const live = route("alpha");
    expect(readinessOf(live)).toEqual({ executable: true, blockedBy: "", reason: "" });
    expect([isPendingRoute(live), isGatedRoute(live), isLiveRoute(live)]).toEqual([false, false, true]);
    expect(assessRoute(live, ctx)).toMatchObject({ canExecuteNow: true, blockingRequirements: [] });
  });

  it("fails closed: a route without readiness is pending and cannot run", () => {
    const unknown = route("alpha", { readiness: undefined });
    expect(readinessOf(unknown)).toMatchObject({ executable: false, blockedBy: "ROUTE_PENDING" });
    expect(isLiveRoute(unknown)).toBe(false);
    expect(assessRoute(unknown, ctx)).toMatchObject({ canExecuteNow: false, blockingRequirements: ["ROUTE_PENDING"] });
  });

  it("lists both blocks of a route that is pending and gated", () => {
    const both = route("alpha", { status: "pending", executionGated: true });
    expect(both.readiness?.blockedBy).toBe("ROUTE_PENDING");
    expect(assessRoute(both, ctx).blockingRequirements).toEqual(["CAPABILITY_GATED", "ROUTE_PENDING"]);
  });

  it("counts a live redirect or byo route as live, blocked by its mode", () => {
    const redirect = route("alpha", { routeMode: "redirect" });
    const byo = route("beta", { routeMode: "byo" });
    expect([isLiveRoute(redirect), isLiveRoute(byo)]).toEqual([true, true]);
    expect(assessRoute(redirect, ctx).blockingRequirements).toEqual(["REDIRECT_NOT_BROKERED"]);
    expect(assessRoute(byo, ctx).blockingRequirements).toEqual(["BYO_CREDENTIALS_REQUIRED"]);
  });
});
