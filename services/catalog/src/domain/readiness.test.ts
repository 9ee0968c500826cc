// Route readiness: the one definition of an executable route, as the router and the executor read it.
import { resolve } from "node:path";
import { DEFAULT_CATALOG_DIR, loadCatalog } from "../source";
import { isLiveRoute, routeReadiness, type ReadinessFacts } from "./readiness";

const LIVE_MANAGED: ReadinessFacts = { status: "live", executionGated: false, routeMode: "managed" };

describe("routeReadiness", () => {
  it("is executable when live, not gated and managed", () => {
    expect(routeReadiness(LIVE_MANAGED)).toEqual({ executable: true, blockedBy: "", reason: "" });
  });

  it.each<[string, Partial<ReadinessFacts>, string, string]>([
    ["pending", { status: "pending" }, "ROUTE_PENDING", "the route is pending"],
    ["execution-gated", { executionGated: true }, "CAPABILITY_GATED", "its execution is gated"],
    ["a redirect", { routeMode: "redirect" }, "REDIRECT_NOT_BROKERED", "it is a redirect, not brokered by Agentic API"],
    ["byo", { routeMode: "byo" }, "BYO_CREDENTIALS_REQUIRED", "it runs on your own provider account, which Agentic API cannot hold yet"],
  ])("is blocked when %s", (_, facts, blockedBy, reason) => {
    expect(routeReadiness({ ...LIVE_MANAGED, ...facts })).toEqual({ executable: false, blockedBy, reason });
  });

  it("is executable for a byo route that runs on a resource the caller acquired through us (an owned inbox)", () => {
    const ownedInbox = { ...LIVE_MANAGED, routeMode: "byo", ownedResource: { kind: "email.inbox", field: "inboxId" } };
    expect(routeReadiness(ownedInbox)).toEqual({ executable: true, blockedBy: "", reason: "" });
    expect(routeReadiness({ ...ownedInbox, status: "pending" }).blockedBy).toBe("ROUTE_PENDING");
  });

  it("names the first block that applies: pending, then gated, then the route mode", () => {
    expect(routeReadiness({ status: "pending", executionGated: true, routeMode: "redirect" }).blockedBy).toBe("ROUTE_PENDING");
    expect(routeReadiness({ status: "live", executionGated: true, routeMode: "byo" }).blockedBy).toBe("CAPABILITY_GATED");
  });
});

describe("live is wider than executable", () => {
  it("counts a live redirect or byo route as live, though it is not executable", () => {
    for (const routeMode of ["redirect", "byo"]) {
      const route = { ...LIVE_MANAGED, routeMode };
      expect(isLiveRoute(route)).toBe(true);
      expect(routeReadiness(route).executable).toBe(false);
    }
  });

  it("counts neither a pending nor a gated route as live", () => {
    expect(isLiveRoute({ status: "pending", executionGated: false })).toBe(false);
    expect(isLiveRoute({ status: "live", executionGated: true })).toBe(false);
  });
});

describe("readiness on served routes", () => {
  it("is derived for every route of a loaded catalog", () => {
    const catalog = loadCatalog(resolve(__dirname, "../../test/fixtures/valid"));
    const readiness = (domainKey: string, capabilityId: string) =>
      Object.fromEntries((catalog.listCapabilityRoutes(domainKey, capabilityId) ?? []).map((r) => [r.routeKey, r.readiness?.blockedBy]));
    expect(readiness("email", "send")).toEqual({
      "email.send.resend": "",
      "email.send.sendgrid": "",
      "email.send.agentmail.mpp": "ROUTE_PENDING",
    });
    expect(readiness("geo", "time-current")).toEqual({
      "geo.time.current.googlemaps.mpp": "CAPABILITY_GATED",
      "geo.time.current.timeapi": "ROUTE_PENDING",
    });
  });

  it("makes exactly the live managed routes, and the live byo routes on an owned resource, of the shipped catalog executable", () => {
    const catalog = loadCatalog(DEFAULT_CATALOG_DIR);
    const routes = catalog.listDomains().flatMap((d) => catalog.listDomainRoutes(d.domainKey) ?? []);
    for (const route of routes) {
      expect(route.readiness).toEqual(routeReadiness(route));
      const ours = route.routeMode === "managed" || (route.routeMode === "byo" && route.ownedResource !== undefined);
      expect([route.routeKey, route.readiness?.executable]).toEqual([route.routeKey, isLiveRoute(route) && ours]);
    }
  });
});
