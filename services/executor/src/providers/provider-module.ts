// What a provider adapter file exports so the executor can register it: the vendor's key, its
// documented public hosts, whether its direct API takes a key, its account settings from the
// environment, and how to build the adapter. Adding a provider is this export in the adapter's own
// file plus one line in all-providers.ts; nothing else names providers.
import type { ProviderAdapter } from "../domain/provider-port";
import type { RailNetwork } from "../domain/rail-port";

/** Reads one environment value by name (already validated by the executor's config schema). */
export type EnvReader = (name: string) => string | undefined;

export interface ProviderModule {
  readonly providerKey: string;
  /** Documented public host per network; a network without one is reachable only when configured. */
  readonly defaultBaseUrls: Partial<Record<RailNetwork, string>>;
  /** The vendor's direct API is free and takes no key (a direct endpoint is registered without one). */
  readonly keyless?: boolean;
  /** Account settings (e.g. a default sender) read from the environment; the adapter receives them as `settings`. */
  settingsFromEnv?(read: EnvReader): Record<string, string>;
  create(settings: Readonly<Record<string, string>>): ProviderAdapter;
}
