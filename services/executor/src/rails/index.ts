// The rails the executor pays providers with, built from config: direct always, x402 and MPP when a
// wallet key is configured.
import { privateKeyToAccount } from "viem/accounts";
import { DirectRail } from "./direct";
import { MppRail } from "./mpp";
import type { Rail, RailNetwork } from "./rail";
import type { RailsConfig } from "./rails-config";
import { usdcOn } from "./stablecoins";
import { X402Rail } from "./x402";

export * from "./rail";
export { DirectRail } from "./direct";
export { X402Rail, type X402RailOptions } from "./x402";
export { MppRail, type MppRailOptions } from "./mpp";
export { USDC, usdcOn, type StablecoinAsset } from "./stablecoins";
export { railsEnvShape, railsConfigFromEnv, type RailsConfig, type RailsEnv, type PayingRailConfig } from "./rails-config";

export interface RailSet {
  /** The rail of a route's network, or undefined when that rail is not configured. */
  get(network: string): Rail | undefined;
  /** Networks with a configured rail. */
  readonly networks: readonly RailNetwork[];
}

/** Builds the configured rails; throws on an unknown network in the config. */
export function createRails(config: RailsConfig): RailSet {
  const rails = new Map<string, Rail>([["direct", new DirectRail()]]);
  if (config.x402) {
    rails.set("agentcash", new X402Rail({ account: privateKeyToAccount(config.x402.privateKey), assets: usdcOn(config.x402.networks), maxPriceMicroUsd: config.x402.maxPriceMicroUsd }));
  }
  if (config.mpp) {
    rails.set("mpp", new MppRail({ account: privateKeyToAccount(config.mpp.privateKey), assets: usdcOn(config.mpp.networks), maxPriceMicroUsd: config.mpp.maxPriceMicroUsd }));
  }
  return { get: (network) => rails.get(network), networks: [...rails.keys()] as RailNetwork[] };
}
