// Provider adapters: capability input → vendor request, vendor answer → normalized result.
export { assertCapability } from "./provider";
export { PROVIDER_MODULES } from "./all-providers";
export type { ProviderModule, EnvReader } from "./provider-module";
export { pathSegment } from "./url-path";
export {
  createProviderRegistry,
  ADAPTER_FACTORIES,
  type ProviderRegistryConfig,
  type ProviderSettings,
  type ProviderEndpoint,
} from "./registry";
export { providersEnvShape, providersConfigFromEnv, DEFAULT_BASE_URLS, type ProvidersEnv } from "./providers-config";
export { DEFAULT_CREDITS_PER_CHANNEL } from "./ayrshare";
