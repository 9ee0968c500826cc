// The shipped catalog runs multi-request vendor flows on direct routes only: on x402 or MPP each request
// of a flow would be paid while an attempt books one payment, so the executor refuses such a route
// (domain/vendor-flow.ts). Listing a flow capability live on a paid route fails here first.
import { DEFAULT_CATALOG_DIR, loadCatalog } from "@agentic/catalog/testing";
import { ADAPTER_FACTORIES } from "../src/providers/registry";

const catalog = loadCatalog(DEFAULT_CATALOG_DIR);
const liveRoutes = catalog
  .listDomains()
  .flatMap((d) => catalog.listCapabilities(d.domainKey) ?? [])
  .flatMap((c) =>
    (catalog.listCapabilityRoutes(c.domainKey, c.capabilityId) ?? [])
      .filter((r) => r.status === "live")
      .map((route) => ({ route, capabilityKey: c.capabilityKey })),
  );
const flowRoutes = liveRoutes
  .filter(({ route, capabilityKey }) => ADAPTER_FACTORIES[route.providerKey]?.({}).flows?.[capabilityKey] !== undefined)
  .map(({ route }) => route);

describe("live routes run as multi-request flows", () => {
  it("are found: Amadeus' flights and hotels, Firecrawl's crawl", () => {
    expect(flowRoutes.map((r) => r.routeKey)).toEqual(
      expect.arrayContaining(["travel.flights.search.amadeus", "travel.hotels.search.amadeus", "web.crawl.firecrawl"]),
    );
  });

  it.each(flowRoutes.map((r) => [r.routeKey, r.networkKey] as const))("%s is a direct route", (_key, networkKey) => {
    expect(networkKey).toBe("direct");
  });
});
