// The rails the executor pays providers with, built from config: direct always, x402 and MPP when a
// wallet key is configured.
import { privateKeyToAccount } from "viem/accounts";
import { DirectRail } from "./direct";
import { MppRail } from "./mpp";
import type { Rail, RailNetwork, RailSet } from "../domain/rail-port";
import type { PayingRailOptions } from "./paying-rail";
import type { PayingRailConfig, RailsConfig } from "./rails-config";
import { usdcOn } from "./stablecoins";
import { X402Rail } from "./x402";

export { DirectRail } from "./direct";
export { X402Rail } from "./x402";
export { MppRail } from "./mpp";
export type { PayingRailOptions } from "./paying-rail";
export { USDC, usdcOn, type StablecoinAsset } from "./stablecoins";
export { railsEnvShape, railsConfigFromEnv, type RailsConfig, type RailsEnv, type PayingRailConfig } from "./rails-config";

/** Builds the configured rails; throws on an unknown network in the config. */
export function createRails(config: RailsConfig): RailSet {
  const rails = new Map<string, Rail>([["direct", new DirectRail()]]);
  if (config.x402) rails.set("agentcash", new X402Rail(payingRailOptions(config.x402)));
  if (config.mpp) rails.set("mpp", new MppRail(payingRailOptions(config.mpp)));
  return { get: (network) => rails.get(network), networks: [...rails.keys()] as RailNetwork[] };
}

function payingRailOptions(config: PayingRailConfig): PayingRailOptions {
  return { account: privateKeyToAccount(config.privateKey), assets: usdcOn(config.networks), maxPriceMicroUsd: config.maxPriceMicroUsd };
}
