// Provider adapters: capability input → vendor request, vendor answer → normalized result.
export { PROVIDER_MODULES } from "./all-providers";
export { defineProvider, type ProviderModule, type EnvReader, type CapabilityHandler, type CapabilityTable } from "./provider-table";
export { pathSegment } from "./url-path";
export {
  createProviderRegistry,
  providerAdapter,
  ADAPTER_FACTORIES,
  type ProviderRegistryConfig,
  type ProviderSettings,
  type ProviderEndpoint,
} from "./registry";
export { providersEnvShape, providersConfigFromEnv, DEFAULT_BASE_URLS, type ProvidersEnv } from "./providers-config";
export { DEFAULT_CREDITS_PER_CHANNEL } from "./ayrshare";
