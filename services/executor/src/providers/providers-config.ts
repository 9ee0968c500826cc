// Environment settings of the provider adapters, as a zod shape the executor's config schema spreads
// in. Per provider P: `P_BASE_URL` + `P_API_KEY` (direct: the vendor's API with our key),
// `P_AGENTCASH_BASE_URL` (its x402 host) and `P_MPP_BASE_URL` (its MPP host). A provider is reachable
// on a network when that network has a base URL (given, or the vendor's documented public one).
import { z } from "zod";
import type { RailNetwork } from "../domain/rail-port";
import { PROVIDER_MODULES } from "./all-providers";
import type { ProviderEndpoint, ProviderRegistryConfig } from "./registry";

/** Documented public hosts per provider and network. Other paid hosts have no default: configure them. */
export const DEFAULT_BASE_URLS: Readonly<Record<string, Partial<Record<RailNetwork, string>>>> = Object.fromEntries(
  PROVIDER_MODULES.map((m) => [m.key, m.defaultBaseUrls]),
);

/** Env var prefix per network (direct has none: `P_BASE_URL`). */
const NETWORK_PREFIX: Readonly<Record<RailNetwork, string>> = { direct: "", agentcash: "AGENTCASH_", mpp: "MPP_" };

const envName = (providerKey: string, suffix: string) => `${providerKey.toUpperCase()}_${suffix}`;
const httpUrl = z.url({ protocol: /^https?$/ });

const perProvider = Object.fromEntries(
  PROVIDER_MODULES.map((m) => m.key).flatMap((p) => [
    ...Object.values(NETWORK_PREFIX).map((prefix) => [envName(p, `${prefix}BASE_URL`), httpUrl.optional()]),
    [envName(p, "API_KEY"), z.string().min(1).optional()],
  ]),
) as Record<string, z.ZodOptional<z.ZodString>>;

/**
 * Env vars of the providers (every provider in all-providers.ts); spread into the executor's config
 * schema. E.g. RESEND_API_KEY, FIRECRAWL_MPP_BASE_URL=https://..., APOLLO_AGENTCASH_BASE_URL=https://....
 */
export const providersEnvShape = {
  ...perProvider,
  /** Sender used by email.send when the input has no `from`, e.g. `Agentic <noreply@example.com>`. */
  EMAIL_DEFAULT_FROM: z.string().min(3).optional(),
  /** Postmark message stream for transactional mail (default "outbound"). */
  POSTMARK_MESSAGE_STREAM: z.string().min(1).optional(),
  /** Credits per channel a broadcast quote estimates for the eventual post (default 125). */
  BROADCAST_CREDITS_PER_CHANNEL: z.coerce.number().int().nonnegative().optional(),
  /** How long a broadcast quote's approval may be used to send, in ms (default 900000: 15 minutes). */
  BROADCAST_QUOTE_TTL_MS: z.coerce.number().int().min(1_000).max(3_600_000).optional(),
  /** Ayrshare Business plan SSO domain, for the link pages of users' profiles (generateJWT). */
  AYRSHARE_PROFILE_DOMAIN: z.string().min(1).optional(),
  /** Ayrshare Business plan private key (private.key, PEM, newlines kept), from a Secret; with the domain it signs link pages. */
  AYRSHARE_PRIVATE_KEY: z.string().min(1).optional(),
};

export type ProvidersEnv = z.infer<z.ZodObject<typeof providersEnvShape>>;

/** Registry config from parsed env values; a direct endpoint is registered only with its API key, except for free APIs. */
export function providersConfigFromEnv(env: ProvidersEnv): ProviderRegistryConfig {
  const read = (name: string) => {
    const value = (env as Record<string, unknown>)[name];
    return value === undefined ? undefined : String(value);
  };
  const config: Record<string, ProviderRegistryConfig[string]> = {};
  for (const provider of PROVIDER_MODULES) {
    const p = provider.key;
    const endpoints: Partial<Record<RailNetwork, ProviderEndpoint>> = {};
    for (const [network, prefix] of Object.entries(NETWORK_PREFIX) as Array<[RailNetwork, string]>) {
      const baseUrl = read(envName(p, `${prefix}BASE_URL`)) ?? provider.defaultBaseUrls[network];
      if (!baseUrl) continue;
      if (network !== "direct") {
        endpoints[network] = { baseUrl };
        continue;
      }
      const apiKey = read(envName(p, "API_KEY"));
      // A key-billed API without our key cannot serve a route; a keyless (free) API needs none.
      if (apiKey || provider.keyless) endpoints.direct = { baseUrl, ...(apiKey ? { apiKey } : {}) };
    }
    if (Object.keys(endpoints).length === 0) continue;
    config[p] = { endpoints, settings: provider.settingsFromEnv?.(read) ?? {} };
  }
  return config;
}
