// The shipped catalog keeps the money rule: on every route that runs on the platform's own
// credentials (direct, managed) and can execute, no input its execute contract accepts can make the
// vendor bill more than the caller is held for. A per-call route must take bounded input; a per-token
// route must be metered (priced models, output caps, max_tokens) with every field accounted for.
// Adding an uncapped field, or a field the per-token quote does not count, fails here.
import { DEFAULT_CATALOG_DIR, loadCatalog } from "@agentic/catalog/testing";
import { unboundedBill } from "../src/domain/pricing";

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
});
