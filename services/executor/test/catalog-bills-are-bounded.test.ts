// The shipped catalog keeps the money rule: on every route that runs on the platform's own
// credentials (direct, managed) and can execute, no input its execute contract accepts can make the
// vendor bill more than the caller is held for. A per-call route must take bounded input; a per-token
// route must be metered (priced models, output caps, max_tokens) with every field accounted for.
// Adding an uncapped field, or a field the per-token quote does not count, fails here; so does a route
// whose vendor bill grows with its output (a page's tokens, a PDF's pages) without a cap the adapter sends.
import { DEFAULT_CATALOG_DIR, loadCatalog } from "@agentic/catalog/testing";
import type { Route } from "@agentic/proto/catalog/v1";
import { quote, unboundedBill, unitMeters } from "../src/domain/pricing";
import { PDF_MAX_PAGES } from "../src/providers/firecrawl";
import { JINA_TOKEN_BUDGET } from "../src/providers/jina";

const catalog = loadCatalog(DEFAULT_CATALOG_DIR);
const capabilities = catalog.listDomains().flatMap((d) => catalog.listCapabilities(d.domainKey) ?? []);
const executable = capabilities.flatMap((c) =>
  (catalog.listCapabilityRoutes(c.domainKey, c.capabilityId) ?? [])
    .filter((r) => r.status === "live" && !r.executionGated)
    .map((route) => ({ route, execute: catalog.getContract(c.domainKey, c.capabilityId)?.execute })),
);
const onOurCredentials = executable.filter(({ route }) => route.networkKey === "direct" && route.routeMode === "managed");

describe("routes on the platform's credentials", () => {
  it("are checked: every executable direct, managed route of the shipped catalog, the first wired ones among them", () => {
    expect(onOurCredentials.map(({ route }) => route.routeKey)).toEqual(
      expect.arrayContaining([
        "broadcast.message.quote.ayrshare",
        "email.send.postmark",
        "email.send.resend",
        "email.send.sendgrid",
        "models.chat.complete.openai",
        "translation.text.translate.deepl",
        "web.extract.firecrawl",
      ]),
    );
  });

  it.each(onOurCredentials.map(({ route, execute }) => [route.routeKey, route, execute] as const))(
    "%s cannot be billed more than it holds",
    (_key, route, execute) => {
      expect(unboundedBill(route, execute)).toEqual([]);
    },
  );

  it("bill by token exactly where the vendor bills us by token: the model routes", () => {
    expect(onOurCredentials.filter(({ route }) => route.billing === "per_token").map(({ route }) => route.routeKey)).toEqual([
      "models.chat.complete.openai",
    ]);
  });

  const route = (routeKey: string): Route => {
    const found = onOurCredentials.find(({ route }) => route.routeKey === routeKey)?.route;
    if (!found) throw new Error(`${routeKey} is not an executable route on our credentials`);
    return found;
  };

  it("meter what the vendor bills by output within the cap each adapter sends: web.fetch's tokens, web.scrape's and web.extract's pages", () => {
    expect(unitMeters(route("web.fetch.jina"))).toEqual([
      expect.objectContaining({ driver: "output_tokens", maxUnits: JINA_TOKEN_BUDGET }),
    ]);
    expect(unitMeters(route("web.scrape.firecrawl"))).toEqual([
      expect.objectContaining({ driver: "pages", maxUnits: PDF_MAX_PAGES["web.scrape"] }),
    ]);
    expect(unitMeters(route("web.extract.firecrawl"))).toEqual([
      expect.objectContaining({ driver: "pages", maxUnits: PDF_MAX_PAGES["web.extract"] }),
    ]);
    expect(route("web.scrape.firecrawl").billDrivers).toContainEqual(expect.objectContaining({ driver: "proxy", bound: "pinned" }));
    // The hold covers the cap: 1 credit + (100k - 16k tokens) x 62.5 credits per 1M.
    expect(quote(route("web.fetch.jina"), { url: "https://example.com" }).holdCredits).toBe(7);
  });

  it("would fail a shipped route whose output bill nothing bounds (the check sees outputs, not only inputs)", () => {
    const jina = route("web.fetch.jina");
    const execute = onOurCredentials.find(({ route }) => route === jina)?.execute;
    const uncapped: Route = {
      ...jina,
      billDrivers: jina.billDrivers.map((d) => (d.driver === "output_tokens" ? { ...d, bound: "none" } : d)),
    };
    expect(unboundedBill(uncapped, execute)).toEqual([
      "output_tokens: the vendor bills by it and nothing bounds it (send the vendor's cap and meter it, or pin it)",
    ]);
  });
});
