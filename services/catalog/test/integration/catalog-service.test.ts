// The catalog over real gRPC: every RPC answers from the loaded catalog, misses are NOT_FOUND
// with our public codes, and health says SERVING.
import { status } from "@grpc/grpc-js";
import { fromServiceError } from "@agentic/platform";
import { startTestCatalog, type TestCatalog } from "../harness";

describe("CatalogService over gRPC", () => {
  let cat: TestCatalog;
  beforeAll(async () => {
    cat = await startTestCatalog();
  });
  afterAll(() => cat.stop());

  it("lists the 17 domains of the spec with the catalog version", async () => {
    const res = await cat.call.listDomains({});
    expect(res.domains.map((d) => d.domainKey).sort()).toEqual(
      [
        "broadcast",
        "chain",
        "document",
        "email",
        "enrichment",
        "finance",
        "geo",
        "media",
        "models",
        "post",
        "search",
        "social",
        "speech",
        "text",
        "translation",
        "travel",
        "web",
      ].sort(),
    );
    expect(res.catalogVersion).toBe(cat.catalog.version);
  });

  it("gets a capability, its routes and its contract", async () => {
    const { capability } = await cat.call.getCapability({ domainKey: "email", capabilityId: "send" });
    expect(capability).toMatchObject({ capabilityKey: "email.send", capabilityId: "send", domainKey: "email" });
    const { routes } = await cat.call.listCapabilityRoutes({ domainKey: "email", capabilityId: "send" });
    expect(routes.map((r) => r.routeKey)).toEqual(expect.arrayContaining(["email.send.resend", "email.send.sendgrid"]));
    const { contract } = await cat.call.getContract({ domainKey: "email", capabilityId: "send" });
    expect(contract?.execute?.requiredFields).toEqual(expect.arrayContaining(["to", "subject"]));
  });

  it("answers an unknown domain with NOT_FOUND / DOMAIN_NOT_FOUND", async () => {
    const err = await cat.call.listCapabilities({ domainKey: "nope" }).catch((e) => e);
    expect(err.code).toBe(status.NOT_FOUND);
    expect(fromServiceError(err)).toMatchObject({ code: "DOMAIN_NOT_FOUND", hint: expect.stringContaining("/domains") });
  });

  it("answers an unknown capability with NOT_FOUND / CAPABILITY_NOT_FOUND", async () => {
    for (const call of [cat.call.getCapability, cat.call.listCapabilityRoutes, cat.call.getContract]) {
      const err = await call({ domainKey: "email", capabilityId: "teleport" }).catch((e) => e);
      expect(fromServiceError(err).code).toBe("CAPABILITY_NOT_FOUND");
    }
  });

  it("summarises providers", async () => {
    const summary = await cat.call.getCatalogSummary({});
    expect(summary.providers).toEqual(expect.arrayContaining(["resend", "sendgrid", "postmark"]));
    expect(summary.enabledProviders.every((p) => summary.providers.includes(p))).toBe(true);
  });

  it("answers the catalog version alone, the one every list names", async () => {
    const { catalogVersion } = await cat.call.getCatalogVersion({});
    expect(catalogVersion).toBe(cat.catalog.version);
    expect(catalogVersion).toBe((await cat.call.listDomains({})).catalogVersion);
  });
});
