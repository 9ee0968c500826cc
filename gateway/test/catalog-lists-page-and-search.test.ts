// Catalog lists at scale, over real HTTP on a generated catalog (twice the shipped one): every list
// pages with limit and an opaque cursor (Link rel="next", X-Total-Count), a walk sees every item once,
// a catalog reload mid-walk is a 410 (never a mixed page), lists without limit answer exactly as
// before, and GET /capabilities and /routes search (by the router's index) and filter across domains.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateTestCatalog, startTestCatalog, type TestCatalog } from "@agentic/catalog/testing";
import { startTestLedger, type TestLedger } from "@agentic/ledger/testing";
import { startTestRouter, type TestRouter } from "@agentic/router/testing";
import { startNatsServer, waitFor, type NatsServerHandle } from "@agentic/testing";
import { toCapabilityEntry, toDomainEntry, toRouteEntry } from "../src/mappers/catalog";
import { startTestGateway, type TestGateway } from "./harness";

interface Page {
  status: number;
  items: any[];
  next: string | undefined;
  total: string | null;
  body: any;
}

/** The URL in `Link: <url>; rel="next"`, if any. */
function nextOf(link: string | null): string | undefined {
  return link?.match(/^<([^>]+)>; rel="next"$/)?.[1];
}

describe("catalog lists page, search and filter", () => {
  let dir: string;
  let catalog: TestCatalog;
  let nats: NatsServerHandle;
  let ledger: TestLedger;
  let router: TestRouter;
  let gw: TestGateway;

  const get = async (pathAndQuery: string, headers: Record<string, string> = {}): Promise<Page> => {
    const res = await fetch(gw.origin + pathAndQuery, { headers });
    const text = await res.text();
    const body = text ? JSON.parse(text) : undefined;
    return {
      status: res.status,
      items: Array.isArray(body) ? body : [],
      next: nextOf(res.headers.get("link")),
      total: res.headers.get("x-total-count"),
      body,
    };
  };

  /** Every item of the list at `first`, page by page (asserting each page's total and size). */
  const walk = async (first: string, limit: number): Promise<any[]> => {
    const seen: any[] = [];
    let url: string | undefined = first;
    while (url) {
      const page = await get(url);
      expect(page.status).toBe(200);
      expect(page.items.length).toBeLessThanOrEqual(limit);
      seen.push(...page.items);
      if (page.next) expect(page.items).toHaveLength(limit);
      url = page.next;
      if (!url) expect(Number(page.total)).toBe(seen.length);
    }
    return seen;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "catalog-pages-"));
    generateTestCatalog(2, dir);
    catalog = await startTestCatalog({ catalogDir: dir });
    // The router answers `q` (the index POST /route reads); it needs a ledger and nats-server to start.
    nats = await startNatsServer();
    ledger = await startTestLedger({ natsUrl: nats.url });
    router = await startTestRouter({ catalogAddress: catalog.address, ledgerAddress: ledger.address, natsUrl: nats.url });
    gw = await startTestGateway({ catalogAddress: catalog.address, routerAddress: router.address, catalogRefreshMs: 100 });
  });
  afterAll(async () => {
    await gw?.stop();
    await router?.stop();
    await ledger?.stop();
    await nats?.stop();
    await catalog?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers every list without limit or cursor exactly as before paging, with no paging headers", async () => {
    const base = new URL(gw.baseUrl).pathname;
    const domains = catalog.catalog.listDomains();
    const expected: Array<[string, unknown]> = [
      ["/domains", domains.map(toDomainEntry)],
      ["/domains/email2/capabilities", catalog.catalog.listCapabilities("email2")!.map(toCapabilityEntry)],
      ["/domains/email2/routes", catalog.catalog.listDomainRoutes("email2")!.map(toRouteEntry)],
    ];
    for (const [path, value] of expected) {
      const res = await fetch(gw.origin + base + path);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(JSON.stringify(value)))).toBe(true);
      expect(res.headers.get("link")).toBeNull();
      expect(res.headers.get("x-total-count")).toBeNull();
    }
  });

  it("walks every list page by page and sees every item exactly once", async () => {
    const base = new URL(gw.baseUrl).pathname;
    const keysOf = (items: any[], key: string) => items.map((i) => i[key]);
    const domains = await walk(`${base}/domains?limit=7`, 7);
    expect(keysOf(domains, "domainKey")).toEqual(catalog.catalog.listDomains().map((d) => d.domainKey));
    expect(domains).toHaveLength(34);

    const allCapabilities = catalog.catalog.listDomains().flatMap((d) => catalog.catalog.listCapabilities(d.domainKey)!);
    const capabilities = await walk(`${base}/capabilities?limit=25`, 25);
    expect(keysOf(capabilities, "capabilityKey")).toEqual(allCapabilities.map((c) => c.capabilityKey));
    expect(new Set(keysOf(capabilities, "capabilityKey")).size).toBe(capabilities.length);

    const allRoutes = catalog.catalog.listDomains().flatMap((d) => catalog.catalog.listDomainRoutes(d.domainKey)!);
    const routes = await walk(`${base}/routes?limit=200`, 200);
    expect(keysOf(routes, "routeKey")).toEqual(allRoutes.map((r) => r.routeKey));
    // Without limit, the lists across domains page at 50.
    expect((await get(`${base}/routes`)).items).toHaveLength(50);

    const domainRoutes = await walk(`${base}/domains/email2/routes?limit=3`, 3);
    expect(domainRoutes).toEqual(catalog.catalog.listDomainRoutes("email2")!.map(toRouteEntry));
    const capabilityRoutes = await walk(`${base}/domains/email2/capabilities/send/routes?limit=2`, 2);
    expect(keysOf(capabilityRoutes, "routeKey")).toEqual(catalog.catalog.listCapabilityRoutes("email2", "send")!.map((r) => r.routeKey));
    const domainCapabilities = await walk(`${base}/domains/email1/capabilities?limit=1`, 1);
    expect(domainCapabilities).toEqual(catalog.catalog.listCapabilities("email1")!.map(toCapabilityEntry));
  });

  it("answers a repeated page with 304 for its strong ETag", async () => {
    const base = new URL(gw.baseUrl).pathname;
    for (const path of [`${base}/capabilities?q=email&limit=5`, `${base}/domains?limit=3`, `${base}/routes?status=live`]) {
      const first = await fetch(gw.origin + path);
      expect(first.status).toBe(200);
      const etag = first.headers.get("etag")!;
      expect(etag).toMatch(/^"[^W].+"$/);
      const again = await fetch(gw.origin + path, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
    }
  });

  it("finds capabilities by words and filters them across domains", async () => {
    const base = new URL(gw.baseUrl).pathname;
    const email = await walk(`${base}/capabilities?q=email&limit=200`, 200);
    const keys = email.map((c) => c.capabilityKey);
    expect(keys).toEqual(expect.arrayContaining(["email1.send", "email2.send", "enrichment1.email.find", "enrichment2.email.find"]));
    expect(keys).not.toContain("geo1.time.current");

    const live = await walk(`${base}/capabilities?status=live&limit=200`, 200);
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((c) => c.status === "live")).toBe(true);
    const resend = await walk(`${base}/capabilities?provider=resend&limit=200`, 200);
    expect(resend.length).toBeGreaterThan(0);
    expect(resend.every((c) => c.supportedProviders.includes("resend"))).toBe(true);
    const cheap = await walk(`${base}/capabilities?maxPriceCredits=2&limit=200`, 200);
    expect(cheap.length).toBeGreaterThan(0);
    expect(cheap.every((c) => c.startingPriceCredits <= 2)).toBe(true);
    expect(cheap.length).toBeLessThan(Number((await get(`${base}/capabilities`)).total));

    const mpp = await walk(`${base}/routes?networkKey=mpp&limit=200`, 200);
    expect(mpp.length).toBeGreaterThan(0);
    expect(mpp.every((r) => r.networkKey === "mpp")).toBe(true);
    const emailRoutes = await walk(`${base}/routes?q=email&provider=resend&limit=200`, 200);
    expect(emailRoutes.length).toBeGreaterThan(0);
    expect(emailRoutes.every((r) => r.providerKey === "resend")).toBe(true);
    const featured = await walk(`${base}/routes?feature=html&limit=200`, 200);
    expect(featured.every((r) => r.supportedFeatures.includes("html"))).toBe(true);
  });

  it("refuses bad query values with a 400 naming the parameter", async () => {
    const base = new URL(gw.baseUrl).pathname;
    const cases: Array<[string, string]> = [
      [`${base}/capabilities?limit=0`, "limit"],
      [`${base}/capabilities?limit=201`, "limit"],
      [`${base}/domains?limit=ten`, "limit"],
      [`${base}/domains?cursor=not-a-cursor`, "cursor"],
      [`${base}/capabilities?status=sleeping`, "status"],
      [`${base}/routes?status=recommend_only`, "status"],
      [`${base}/routes?networkKey=carrier-pigeon`, "networkKey"],
      [`${base}/capabilities?maxPriceCredits=-1`, "maxPriceCredits"],
      [`${base}/capabilities?provider=Re%20send`, "provider"],
      [`${base}/capabilities?q=`, "q"],
      [`${base}/capabilities?q=a&q=b`, "q"],
      [`${base}/capabilities?colour=blue`, "colour"],
    ];
    for (const [path, parameter] of cases) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body).toMatchObject({ code: "INVALID_INPUT" });
      expect(res.body.error).toContain(parameter);
      expect(typeof res.body.hint).toBe("string");
    }
    // A cursor of one list is not a cursor of another.
    const domainsPage = await get(`${base}/domains?limit=2`);
    const cursor = new URL(domainsPage.next!, gw.origin).searchParams.get("cursor")!;
    const other = await get(`${base}/capabilities?cursor=${cursor}`);
    expect([other.status, other.body.code]).toEqual([400, "INVALID_INPUT"]);
  });

  // Last: it changes the catalog under the gateway.
  it("tells a walk to start again when the catalog reloads mid-walk, and never serves a mixed page", async () => {
    const base = new URL(gw.baseUrl).pathname;
    const before = catalog.catalog.listDomains().flatMap((d) => catalog.catalog.listCapabilities(d.domainKey)!.map(toCapabilityEntry));
    const lists = [`${base}/capabilities?limit=10`, `${base}/domains?limit=5`, `${base}/domains/web2/routes?limit=2`];
    const nexts: string[] = [];
    for (const first of lists) {
      const page1 = await get(first);
      const page2 = await get(page1.next!);
      expect(page2.status).toBe(200);
      nexts.push(page2.next!);
    }
    const page2Capabilities = (await get((await get(lists[0]!)).next!)).items;
    expect(page2Capabilities).toEqual(before.slice(10, 20));

    // The catalog comes back on the same address with one domain less (a new catalog version).
    const index = join(dir, "_catalog.yaml");
    writeFileSync(index, readFileSync(index, "utf8").replace(/^ {2}- email1\n/m, ""));
    rmSync(join(dir, "email1.yaml"));
    const address = catalog.address;
    await catalog.stop();
    catalog = await startTestCatalog({ catalogDir: dir, bindAddress: address });
    const after = catalog.catalog.listDomains().flatMap((d) => catalog.catalog.listCapabilities(d.domainKey)!.map(toCapabilityEntry));
    expect(after.length).toBeLessThan(before.length);

    // Until the gateway sees the new version it serves the old one's pages whole (a page it did not keep
    // is a 503 while its channel to the restarted catalog reconnects, asked again as a client would); then 410.
    for (const next of nexts) {
      let last: Page | undefined;
      await waitFor(
        async () => {
          last = await get(next);
          if (last.status === 200 && next === nexts[0]) expect(last.items).toEqual(before.slice(20, 30));
          return last.status !== 200 && last.status !== 503;
        },
        { what: `410 for ${next}`, timeoutMs: 10_000, intervalMs: 50 },
      );
      expect(last!.status).toBe(410);
      expect(last!.body).toMatchObject({ code: "CURSOR_EXPIRED" });
      expect(last!.body.hint).toMatch(/start/i);
    }
    // Started again, the walk sees the new catalog, every item once.
    const again = await walk(lists[0]!, 10);
    expect(again).toEqual(after);
  });
});
