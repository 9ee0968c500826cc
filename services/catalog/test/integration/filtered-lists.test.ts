// The lists across domains over real gRPC (FilterCapabilities, FilterRoutes) on a generated catalog
// twice the shipped one: every page is the catalog's own records, in catalog order or a ranking's, each
// filter selects what it names, the total counts the whole filtered list, and a bad page is refused.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { status } from "@grpc/grpc-js";
import { fromServiceError } from "@agentic/platform";
import type { Capability, CatalogFilter, Route } from "@agentic/proto/catalog/v1";
import { generateTestCatalog, startTestCatalog, type TestCatalog } from "../harness";

describe("FilterCapabilities and FilterRoutes over gRPC", () => {
  let dir: string;
  let cat: TestCatalog;
  let capabilities: Capability[];
  let routes: Route[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "catalog-filtered-"));
    generateTestCatalog(2, dir);
    cat = await startTestCatalog({ catalogDir: dir });
    const domains = cat.catalog.listDomains();
    capabilities = domains.flatMap((d) => cat.catalog.listCapabilities(d.domainKey)!);
    routes = domains.flatMap((d) => cat.catalog.listDomainRoutes(d.domainKey)!);
  });
  afterAll(async () => {
    await cat?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every item of a filtered list, page by page, checking each page's total and version. */
  const walk = async <T>(read: (offset: number) => Promise<{ items: T[]; total: number; catalogVersion: string }>, limit: number) => {
    const seen: T[] = [];
    for (;;) {
      const page = await read(seen.length);
      expect(page.catalogVersion).toBe(cat.catalog.version);
      expect(page.items.length).toBeLessThanOrEqual(limit);
      seen.push(...page.items);
      if (page.items.length < limit || seen.length === page.total) {
        expect(seen).toHaveLength(page.total);
        return seen;
      }
    }
  };
  const allCapabilities = (filter: CatalogFilter | undefined, limit = 37) =>
    walk(async (offset) => {
      const a = await cat.call.filterCapabilities({ filter, offset, limit });
      return { items: a.capabilities, total: a.total, catalogVersion: a.catalogVersion };
    }, limit);
  const allRoutes = (filter: CatalogFilter | undefined, limit = 53) =>
    walk(async (offset) => {
      const a = await cat.call.filterRoutes({ filter, offset, limit });
      return { items: a.routes, total: a.total, catalogVersion: a.catalogVersion };
    }, limit);

  it("lists every capability and every route in catalog order, each exactly as its domain's list has it", async () => {
    expect(await allCapabilities(undefined)).toEqual(capabilities);
    expect(await allRoutes(undefined)).toEqual(routes);
  });

  it("selects what each filter names, and counts the whole filtered list", async () => {
    const live = await allCapabilities({ status: "live" });
    expect(live).toEqual(capabilities.filter((c) => c.status === "live"));
    expect(live.length).toBeLessThan(capabilities.length);
    expect(await allCapabilities({ provider: "resend" })).toEqual(capabilities.filter((c) => c.supportedProviders.includes("resend")));
    expect(await allCapabilities({ feature: "html" })).toEqual(capabilities.filter((c) => c.supportedFeatures.includes("html")));
    const cheap = await allCapabilities({ maxPriceCredits: 2 });
    expect(cheap).toEqual(capabilities.filter((c) => c.startingPriceCredits !== undefined && c.startingPriceCredits <= 2));
    expect(cheap.length).toBeGreaterThan(0);
    const onMpp = new Set(routes.filter((r) => r.networkKey === "mpp").map((r) => r.capabilityKey));
    expect(onMpp.size).toBeGreaterThan(0);
    expect(await allCapabilities({ networkKey: "mpp" })).toEqual(capabilities.filter((c) => onMpp.has(c.capabilityKey)));

    expect(await allRoutes({ networkKey: "mpp", status: "live" })).toEqual(
      routes.filter((r) => r.networkKey === "mpp" && r.status === "live"),
    );
    expect(await allRoutes({ provider: "resend", maxPriceCredits: 5 })).toEqual(
      routes.filter((r) => r.providerKey === "resend" && r.startingCostCredits <= 5),
    );
    const none = await cat.call.filterCapabilities({ filter: { provider: "nobody" }, offset: 0, limit: 10 });
    expect([none.capabilities, none.total, none.catalogVersion]).toEqual([[], 0, cat.catalog.version]);
  });

  it("keeps a ranking's order (unknown and repeated keys skipped), and lists routes capability by capability in it", async () => {
    const ranked = { capabilityKeys: ["enrichment2.email.find", "nope.nothing", "email1.send", "enrichment2.email.find", "email2.send"] };
    const found = await allCapabilities({ ranked }, 2);
    expect(found.map((c) => c.capabilityKey)).toEqual(["enrichment2.email.find", "email1.send", "email2.send"]);
    const rankedRoutes = await allRoutes({ ranked, provider: "resend" }, 1);
    expect(rankedRoutes).toEqual(
      ["email1.send", "email2.send"].flatMap((key) => routes.filter((r) => r.capabilityKey === key && r.providerKey === "resend")),
    );
    expect(await allCapabilities({ ranked: { capabilityKeys: [] } })).toEqual([]);
  });

  it("refuses a page out of bounds with INVALID_ARGUMENT naming it", async () => {
    for (const [offset, limit, named] of [
      [-1, 10, "offset"],
      [0, 0, "limit"],
      [0, 201, "limit"],
    ] as const) {
      const err = await cat.call.filterRoutes({ offset, limit }).catch((e) => e);
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      expect(fromServiceError(err)).toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining(named) });
    }
    const past = await cat.call.filterCapabilities({ offset: 1_000_000, limit: 10 });
    expect([past.capabilities, past.total]).toEqual([[], capabilities.length]);
  });
});
