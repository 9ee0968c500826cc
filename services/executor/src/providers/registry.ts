// The provider registry: one adapter per configured provider, made from its table (the one place a
// capability is checked and dispatched to its handler), with the context (base URL, key, account
// settings) it calls its vendor with on each route network, and the owned-resource fields every
// adapter declares.
import { PROVIDER_MODULES } from "./all-providers";
import type { RailNetwork } from "../domain/rail-port";
import { ProviderError, type ConfiguredProvider, type ProviderAdapter, type ProviderRegistry } from "../domain/provider-port";
import type { CapabilityHandler, ProviderModule, ProviderSettingsMap } from "./provider-table";
import { declaredResourceFields, declaredSenderFields } from "./resource-fields";
import { parseMailbox } from "../domain/mailbox";

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

/** The adapter of a provider's table with its account settings. */
export function providerAdapter(module: ProviderModule, settings: ProviderSettingsMap = {}): ProviderAdapter {
  const providerKey = module.key;
  const table = typeof module.capabilities === "function" ? module.capabilities(settings) : module.capabilities;
  const capabilityKeys = Object.keys(table);
  const handlerOf = (capabilityKey: string): CapabilityHandler => {
    assertCapability({ providerKey, capabilityKeys }, capabilityKey);
    return table[capabilityKey] as CapabilityHandler;
  };
  /** What the handlers declare, by capability; undefined when none does. */
  const declared = <T>(pick: (h: CapabilityHandler) => T | undefined): Record<string, T> | undefined => {
    const found = Object.entries(table).flatMap(([capabilityKey, h]) => {
      const value = pick(h);
      return value === undefined ? [] : [[capabilityKey, value] as const];
    });
    return found.length ? Object.fromEntries(found) : undefined;
  };
  const resourceFields = declared((h) => h.resourceFields);
  const senderFields = declared((h) => h.senderFields);
  const flows = declared((h) => h.flow);
  const approvals = module.approvals?.(settings);
  return {
    providerKey,
    capabilityKeys,
    ...(resourceFields ? { resourceFields } : {}),
    ...(senderFields ? { senderFields } : {}),
    ...(flows ? { flows } : {}),
    ...(approvals ? { approvals } : {}),
    buildRequest: (capabilityKey, input, ctx) => handlerOf(capabilityKey).request(input, ctx),
    parseResponse: (capabilityKey, res, input) => {
      const handler = handlerOf(capabilityKey);
      if (!handler.parse)
        throw new ProviderError(
          "unsupported_capability",
          providerKey,
          `${capabilityKey} on ${providerKey} runs as a flow of several requests`,
        );
      return handler.parse(res, input);
    },
  };
}

/**
 * Throws unless the adapter implements the capability: one asked for another was reached by a routing
 * bug, and refuses rather than send the vendor a wrong request.
 */
function assertCapability(adapter: Pick<ProviderAdapter, "providerKey" | "capabilityKeys">, capabilityKey: string): void {
  if (!adapter.capabilityKeys.includes(capabilityKey)) {
    throw new ProviderError("unsupported_capability", adapter.providerKey, `${adapter.providerKey} does not implement ${capabilityKey}`);
  }
}

/** Every provider key an adapter exists for, with its factory (from all-providers.ts). */
export const ADAPTER_FACTORIES: Readonly<Record<string, (settings: ProviderSettingsMap) => ProviderAdapter>> = Object.fromEntries(
  PROVIDER_MODULES.map((m) => [m.key, (settings: ProviderSettingsMap) => providerAdapter(m, settings)]),
);

/** Owned-resource and sender fields of every adapter above, configured in this deployment or not. */
const everyAdapter = Object.values(ADAPTER_FACTORIES).map((factory) => factory({}));
const resourceFieldsOf = declaredResourceFields(everyAdapter);
const senderFieldsOf = declaredSenderFields(everyAdapter);

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
  const platformSenders = [
    ...new Set(Object.values(config).flatMap((s) => parseMailbox(s.settings?.defaultFrom ?? "")?.address.toLowerCase() ?? [])),
  ];
  const approvals = [...providers.values()].flatMap((byNetwork) => [...byNetwork.values()][0]?.adapter.approvals ?? []);
  return {
    get: (key, network) => providers.get(key)?.get(network as RailNetwork),
    providerKeys: [...providers.keys()],
    resourceFieldsOf,
    senderFieldsOf,
    platformSenders,
    approvalOf: (capabilityKey) => approvals.find((a) => a.issuedBy === capabilityKey || a.requiredBy === capabilityKey),
  };
}
