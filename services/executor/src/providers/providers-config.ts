// Environment settings of the provider adapters, as a zod shape the executor's config schema spreads
// in. Per provider P: `P_BASE_URL` + `P_API_KEY` (direct: the vendor's API with our key),
// `P_AGENTCASH_BASE_URL` (its x402 host) and `P_MPP_BASE_URL` (its MPP host). A provider is reachable
// on a network when that network has a base URL (given, or the vendor's documented public one).
import { z } from "zod";
import type { RailNetwork } from "../domain/rail-port";
import { ADAPTER_FACTORIES, type ProviderEndpoint, type ProviderRegistryConfig } from "./registry";

/** Documented public hosts per network. Other paid hosts have no default: configure them. */
export const DEFAULT_BASE_URLS: Readonly<Record<string, Partial<Record<RailNetwork, string>>>> = {
  resend: { direct: "https://api.resend.com" },
  sendgrid: { direct: "https://api.sendgrid.com" },
  postmark: { direct: "https://api.postmarkapp.com" },
  agentmail: { direct: "https://api.agentmail.to", mpp: "https://mpp.api.agentmail.to" },
  ayrshare: { direct: "https://api.ayrshare.com" },
  deepl: { direct: "https://api.deepl.com" },
  openai: { direct: "https://api.openai.com/v1" },
  deepseek: { direct: "https://api.deepseek.com" },
  exa: { direct: "https://api.exa.ai" },
  firecrawl: { direct: "https://api.firecrawl.dev" },
  apollo: { direct: "https://api.apollo.io" },
  timeapi: { direct: "https://timeapi.io" },
};

/** Env var prefix per network (direct has none: `P_BASE_URL`). */
const NETWORK_PREFIX: Readonly<Record<RailNetwork, string>> = { direct: "", agentcash: "AGENTCASH_", mpp: "MPP_" };

/** Providers whose direct API takes no key. */
const FREE_APIS = new Set(["timeapi"]);

const envName = (providerKey: string, suffix: string) => `${providerKey.toUpperCase()}_${suffix}`;
const httpUrl = z.url({ protocol: /^https?$/ });

const perProvider = Object.fromEntries(
  Object.keys(ADAPTER_FACTORIES).flatMap((p) => [
    ...Object.values(NETWORK_PREFIX).map((prefix) => [envName(p, `${prefix}BASE_URL`), httpUrl.optional()]),
    [envName(p, "API_KEY"), z.string().min(1).optional()],
  ]),
) as Record<string, z.ZodOptional<z.ZodString>>;

/**
 * Env vars of the providers; spread into the executor's config schema. Providers: resend, sendgrid,
 * postmark, agentmail, exa, firecrawl, apollo, timeapi, ayrshare, deepl, openai, deepseek; e.g.
 * RESEND_API_KEY, FIRECRAWL_MPP_BASE_URL=https://..., APOLLO_AGENTCASH_BASE_URL=https://....
 */
export const providersEnvShape = {
  ...perProvider,
  /** Sender used by email.send when the input has no `from`, e.g. `Agentic <noreply@example.com>`. */
  EMAIL_DEFAULT_FROM: z.string().min(3).optional(),
  /** Postmark message stream for transactional mail (default "outbound"). */
  POSTMARK_MESSAGE_STREAM: z.string().min(1).optional(),
  /** Credits per channel a broadcast quote estimates for the eventual post (default 125). */
  BROADCAST_CREDITS_PER_CHANNEL: z.coerce.number().int().nonnegative().optional(),
};

export type ProvidersEnv = z.infer<z.ZodObject<typeof providersEnvShape>>;

/** Registry config from parsed env values; a direct endpoint is registered only with its API key, except for free APIs. */
export function providersConfigFromEnv(env: ProvidersEnv): ProviderRegistryConfig {
  const read = (name: string) => (env as Record<string, unknown>)[name] as string | undefined;
  const config: Record<string, ProviderRegistryConfig[string]> = {};
  for (const p of Object.keys(ADAPTER_FACTORIES)) {
    const endpoints: Partial<Record<RailNetwork, ProviderEndpoint>> = {};
    for (const [network, prefix] of Object.entries(NETWORK_PREFIX) as Array<[RailNetwork, string]>) {
      const baseUrl = read(envName(p, `${prefix}BASE_URL`)) ?? DEFAULT_BASE_URLS[p]?.[network];
      if (!baseUrl) continue;
      if (network !== "direct") {
        endpoints[network] = { baseUrl };
        continue;
      }
      const apiKey = read(envName(p, "API_KEY"));
      // A key-billed API without our key cannot serve a route; timeapi.io is free and needs none.
      if (apiKey || FREE_APIS.has(p)) endpoints.direct = { baseUrl, ...(apiKey ? { apiKey } : {}) };
    }
    if (Object.keys(endpoints).length === 0) continue;
    const settings: Record<string, string> = {};
    if (["resend", "sendgrid", "postmark"].includes(p) && env.EMAIL_DEFAULT_FROM) settings.defaultFrom = env.EMAIL_DEFAULT_FROM;
    if (p === "postmark" && env.POSTMARK_MESSAGE_STREAM) settings.messageStream = env.POSTMARK_MESSAGE_STREAM;
    if (p === "ayrshare" && env.BROADCAST_CREDITS_PER_CHANNEL !== undefined)
      settings.creditsPerChannel = String(env.BROADCAST_CREDITS_PER_CHANNEL);
    config[p] = { endpoints, settings };
  }
  return config;
}
