import { z } from "zod";
import { providersConfigFromEnv, providersEnvShape } from "./providers-config";
import { createProviderRegistry } from "./registry";

describe("provider registry", () => {
  it("gives each provider a context per network: trimmed base URL, our key only on direct", () => {
    const registry = createProviderRegistry({
      firecrawl: {
        endpoints: { direct: { baseUrl: "https://api.firecrawl.dev/", apiKey: "fc-1" }, mpp: { baseUrl: "https://firecrawl.mpp.example" } },
      },
      resend: { endpoints: { direct: { baseUrl: "https://api.resend.com", apiKey: "re_1" } }, settings: { defaultFrom: "a@b.c" } },
    });
    expect(registry.providerKeys).toEqual(["firecrawl", "resend"]);
    expect(registry.get("firecrawl", "direct")?.ctx).toEqual({
      baseUrl: "https://api.firecrawl.dev",
      credentials: { apiKey: "fc-1" },
      settings: {},
    });
    expect(registry.get("firecrawl", "mpp")?.ctx).toEqual({ baseUrl: "https://firecrawl.mpp.example", settings: {} });
    expect(registry.get("firecrawl", "mpp")?.adapter).toBe(registry.get("firecrawl", "direct")?.adapter);
    expect(registry.get("firecrawl", "agentcash")).toBeUndefined();
    expect(registry.get("resend", "direct")?.ctx.settings).toEqual({ defaultFrom: "a@b.c" });
    expect(registry.get("sendgrid", "direct")).toBeUndefined();
  });

  it("fails fast on an unknown provider, a malformed URL, or a key on a payment host", () => {
    expect(() => createProviderRegistry({ mailchimp: { endpoints: { direct: { baseUrl: "https://x" } } } })).toThrow(
      /no adapter for provider "mailchimp"/,
    );
    expect(() => createProviderRegistry({ resend: { endpoints: { direct: { baseUrl: "not a url" } } } })).toThrow();
    expect(() => createProviderRegistry({ exa: { endpoints: { mpp: { baseUrl: "https://exa.mpp.example", apiKey: "k" } } } })).toThrow(
      /only direct endpoints take one/,
    );
  });
});

describe("provider env", () => {
  const schema = z.object(providersEnvShape);

  it("registers direct endpoints that have a key (or need none) and paid endpoints that have a URL", () => {
    const env = schema.parse({
      RESEND_API_KEY: "re_1",
      EXA_MPP_BASE_URL: "http://127.0.0.1:8090/mpp/exa",
      EMAIL_DEFAULT_FROM: "Agentic <no@reply.dev>",
      AYRSHARE_API_KEY: "ay",
      BROADCAST_CREDITS_PER_CHANNEL: "30",
    });
    const config = providersConfigFromEnv(env);
    expect(config.resend).toEqual({
      endpoints: { direct: { baseUrl: "https://api.resend.com", apiKey: "re_1" } },
      settings: { defaultFrom: "Agentic <no@reply.dev>" },
    });
    // Exa has no key configured, so only its MPP host is usable.
    expect(config.exa).toEqual({ endpoints: { mpp: { baseUrl: "http://127.0.0.1:8090/mpp/exa" } }, settings: {} });
    expect(config.agentmail?.endpoints).toEqual({ mpp: { baseUrl: "https://mpp.api.agentmail.to" } });
    expect(config.timeapi?.endpoints).toEqual({ direct: { baseUrl: "https://timeapi.io" } });
    expect(config.ayrshare?.settings).toEqual({ creditsPerChannel: "30" });
    expect(config.apollo).toBeUndefined();
    expect(createProviderRegistry(config).providerKeys).toEqual(
      expect.arrayContaining(["resend", "exa", "agentmail", "timeapi", "ayrshare"]),
    );
  });

  it("rejects a base URL that is not http(s)", () => {
    expect(schema.safeParse({ RESEND_BASE_URL: "ftp://x" }).success).toBe(false);
    expect(schema.safeParse({ APOLLO_AGENTCASH_BASE_URL: "not a url" }).success).toBe(false);
  });
});
