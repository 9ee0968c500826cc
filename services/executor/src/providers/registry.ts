// The provider registry: one adapter per configured provider, with the context (base URL, key,
// account settings) it calls its vendor with on each route network, and the owned-resource fields
// every adapter declares.
import { PROVIDER_MODULES } from "./all-providers";
import type { RailNetwork } from "../domain/rail-port";
import type { ConfiguredProvider, ProviderAdapter, ProviderRegistry } from "../domain/provider-port";
import { declaredResourceFields } from "./resource-fields";

/** Where a vendor is reached on one route network. */
export interface ProviderEndpoint {
  /** Vendor base URL (trailing slash ignored). */
  baseUrl: string;
  /** Our key; only direct endpoints carry one (on x402/MPP hosts the payment replaces it). */
  apiKey?: string;
}

/** How to reach one provider. */
export interface ProviderSettings {
  /** Per route network: `direct` (the vendor's API, our key), `agentcash` (an x402 host), `mpp` (an MPP host). */
  endpoints: Partial<Record<RailNetwork, ProviderEndpoint>>;
  /** Account settings: `defaultFrom` (email senders), `messageStream` (postmark), `creditsPerChannel` (ayrshare). */
  settings?: Readonly<Record<string, string>>;
}

/** Settings per providerKey; only listed providers are registered. */
export type ProviderRegistryConfig = Readonly<Record<string, ProviderSettings>>;

/** Every provider key an adapter exists for, with its factory (from all-providers.ts). */
export const ADAPTER_FACTORIES: Readonly<Record<string, (settings: Readonly<Record<string, string>>) => ProviderAdapter>> =
  Object.fromEntries(PROVIDER_MODULES.map((m) => [m.providerKey, (settings: Readonly<Record<string, string>>) => m.create(settings)]));

/** Owned-resource fields of every adapter above, configured in this deployment or not. */
const resourceFieldsOf = declaredResourceFields(Object.values(ADAPTER_FACTORIES).map((factory) => factory({})));

/**
 * Builds the registry; throws on a provider key without an adapter, a malformed base URL, or a key on a
 * paid endpoint. `providerTimeoutMs` (PROVIDER_TIMEOUT_MS) reaches every adapter as ctx.timeoutMs.
 */
export function createProviderRegistry(config: ProviderRegistryConfig, opts: { providerTimeoutMs?: number } = {}): ProviderRegistry {
  const providers = new Map<string, Map<RailNetwork, ConfiguredProvider>>();
  for (const [providerKey, s] of Object.entries(config)) {
    const factory = ADAPTER_FACTORIES[providerKey];
    if (!factory) throw new Error(`no adapter for provider "${providerKey}"; known: ${Object.keys(ADAPTER_FACTORIES).join(", ")}`);
    const settings = s.settings ?? {};
    const adapter = factory(settings);
    const byNetwork = new Map<RailNetwork, ConfiguredProvider>();
    for (const [network, endpoint] of Object.entries(s.endpoints) as Array<[RailNetwork, ProviderEndpoint | undefined]>) {
      if (!endpoint) continue;
      const url = new URL(endpoint.baseUrl); // throws on a malformed URL, at startup rather than per call
      if (url.protocol !== "https:" && url.protocol !== "http:")
        throw new Error(`base URL of "${providerKey}" (${network}) must be http(s)`);
      // Our vendor key must never travel to a payment host, which is a different party.
      if (endpoint.apiKey && network !== "direct")
        throw new Error(`"${providerKey}" has an API key on its ${network} endpoint; only direct endpoints take one`);
      byNetwork.set(network, {
        adapter,
        ctx: {
          baseUrl: endpoint.baseUrl.replace(/\/+$/, ""),
          ...(endpoint.apiKey ? { credentials: { apiKey: endpoint.apiKey } } : {}),
          settings,
          ...(opts.providerTimeoutMs !== undefined ? { timeoutMs: opts.providerTimeoutMs } : {}),
        },
      });
    }
    providers.set(providerKey, byNetwork);
  }
  return { get: (key, network) => providers.get(key)?.get(network as RailNetwork), providerKeys: [...providers.keys()], resourceFieldsOf };
}
