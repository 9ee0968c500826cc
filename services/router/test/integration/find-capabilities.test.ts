// FindCapabilities over real gRPC, on the real catalog (the shipped data), ledger and nats-server: the
// catalog's search box answers from the intent index RouteTask reads, every status included (a
// planned capability is found by its words, where RouteTask still never lists it), with the catalog's
// version; bad words are INVALID_INPUT; only the gateway may call it.
import { status } from "@grpc/grpc-js";
import { CatalogCache, createRouterClient } from "@agentic/clients";
import { DEFAULT_CATALOG_DIR } from "@agentic/catalog/testing";
import { INTENT_ROUTABLE_STATUSES, IntentIndex } from "@agentic/intent";
import { createLogger, fromServiceError } from "@agentic/platform";
import { testIdentities } from "@agentic/testing";
import { startRouterSystem, type RouterSystem } from "../system";

describe("RouterService/FindCapabilities", () => {
  let sys: RouterSystem;
  beforeAll(async () => {
    sys = await startRouterSystem({ catalogDir: DEFAULT_CATALOG_DIR });
  });
  afterAll(() => sys?.stop());

  const find = (words: string) => sys.router.client.findCapabilities({ words });

  /** Every capability of the catalog, with its status. */
  async function capabilities() {
    const { domains } = await sys.catalog.call.listDomains({});
    const lists = await Promise.all(domains.map(({ domainKey }) => sys.catalog.call.listCapabilities({ domainKey })));
    return lists.flatMap((l) => l.capabilities);
  }

  it("finds email.send and enrichment.email.find for 'email', best first, with the catalog's version", async () => {
    const answer = await find("  email ");
    expect(answer.capabilityKeys).toEqual(expect.arrayContaining(["email.send", "enrichment.email.find"]));
    expect(new Set(answer.capabilityKeys).size).toBe(answer.capabilityKeys.length);
    const { catalogVersion } = await sys.catalog.call.getCatalogVersion({});
    expect(answer.catalogVersion).toBe(catalogVersion);
  });

  it("answers what IntentIndex.find answers over every capability of the catalog", async () => {
    const cache = new CatalogCache(sys.catalog.call, { refreshMs: 60_000, logger: createLogger("router-test", "silent") });
    // Whole entries, not the router's projection of them: the answers must not depend on what it leaves out.
    const listing = await cache.listing((entry) => entry);
    const index = new IntentIndex(listing.entries, listing.catalogVersion);
    for (const words of ["email", "send a letter by post", "transcribe", "deep research report", "weather in oslo"]) {
      expect([words, (await find(words)).capabilityKeys]).toEqual([words, index.find(words)]);
    }
  });

  it("finds a planned or pending capability by its words, which RouteTask never lists", async () => {
    const unroutable = (await capabilities()).filter((c) => !INTENT_ROUTABLE_STATUSES.has(c.status));
    expect(unroutable.length).toBeGreaterThan(0);
    for (const c of unroutable) {
      const found = await find(c.label);
      expect([c.capabilityKey, found.capabilityKeys.includes(c.capabilityKey)]).toEqual([c.capabilityKey, true]);
      const routed = await sys.router.client.routeTask({ task: c.label, limit: 20 });
      expect(routed.matches.map((m) => m.capabilityKey)).not.toContain(c.capabilityKey);
      for (const m of routed.matches) expect(INTENT_ROUTABLE_STATUSES.has(m.status)).toBe(true);
    }
  });

  it("answers no keys for words the catalog lacks", async () => {
    expect((await find("zzqxv")).capabilityKeys).toEqual([]);
  });

  it("refuses words empty after trimming or over 2000 characters as INVALID_INPUT naming words", async () => {
    for (const words of ["", "   ", "e".repeat(2001)]) {
      const err = await find(words).then(
        () => undefined,
        (e: unknown) => e as { code: number },
      );
      expect(err?.code).toBe(status.INVALID_ARGUMENT);
      const appError = fromServiceError(err as never);
      expect([appError.code, appError.details]).toEqual(["INVALID_INPUT", { field: "words" }]);
    }
    await expect(find(`email ${"e".repeat(1994)}`)).resolves.toMatchObject({ capabilityKeys: expect.any(Array) });
  });

  it("answers the gateway only", async () => {
    for (const name of ["executor", "ledger", "catalog"] as const) {
      const client = createRouterClient(sys.router.address, 5_000, testIdentities().identity(name));
      const err = await client
        .findCapabilities({ words: "email" })
        .then(
          () => undefined,
          (e: unknown) => e as { code: number },
        )
        .finally(() => client.close());
      expect([name, err?.code, fromServiceError(err as never).code]).toEqual([name, status.PERMISSION_DENIED, "SERVICE_NOT_ALLOWED"]);
    }
  });
});
