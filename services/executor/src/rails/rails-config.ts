// Environment settings of the paying rails, as a zod shape the executor's config schema spreads in,
// and their translation into createRails() input. A rail whose wallet key is absent is not created.
import { z } from "zod";
import type { Hex } from "viem";

const privateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x followed by 64 hex digits");
const networks = z
  .string()
  .transform((s) =>
    s
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^eip155:\d+$/, "networks are CAIP-2 ids like eip155:8453")).min(1));
const microUsd = z.coerce.number().int().positive();

/** Env vars of the rails; spread into the executor's config schema. */
export const railsEnvShape = {
  /** Service wallet that signs x402 payments (EIP-3009), e.g. 0xabc…(64 hex). Absent: no x402 rail. */
  X402_WALLET_PRIVATE_KEY: privateKey.optional(),
  /** CAIP-2 networks whose USDC x402 may pay with, e.g. "eip155:8453" (prod) or "eip155:84532" (sandbox). */
  X402_NETWORKS: networks.default(["eip155:84532"]),
  /** Most one x402 call may pay, in micro-USD (1000 = 1 credit); default 1000000 = 1 USD. */
  X402_MAX_PRICE_MICRO_USD: microUsd.default(1_000_000),
  /** Service wallet that signs MPP `evm` credentials. Absent: no MPP rail. May equal the x402 key. */
  MPP_WALLET_PRIVATE_KEY: privateKey.optional(),
  /** CAIP-2 networks whose USDC MPP may pay with. */
  MPP_NETWORKS: networks.default(["eip155:84532"]),
  /** Most one MPP call may pay, in micro-USD; default 1000000 = 1 USD. */
  MPP_MAX_PRICE_MICRO_USD: microUsd.default(1_000_000),
};

export type RailsEnv = z.infer<z.ZodObject<typeof railsEnvShape>>;

/** One paying rail's settings. */
export interface PayingRailConfig {
  privateKey: Hex;
  networks: string[];
  maxPriceMicroUsd: number;
}

export interface RailsConfig {
  x402?: PayingRailConfig;
  mpp?: PayingRailConfig;
}

/** Rails config from parsed env values. */
export function railsConfigFromEnv(env: RailsEnv): RailsConfig {
  return {
    ...(env.X402_WALLET_PRIVATE_KEY
      ? {
          x402: {
            privateKey: env.X402_WALLET_PRIVATE_KEY as Hex,
            networks: env.X402_NETWORKS,
            maxPriceMicroUsd: env.X402_MAX_PRICE_MICRO_USD,
          },
        }
      : {}),
    ...(env.MPP_WALLET_PRIVATE_KEY
      ? {
          mpp: { privateKey: env.MPP_WALLET_PRIVATE_KEY as Hex, networks: env.MPP_NETWORKS, maxPriceMicroUsd: env.MPP_MAX_PRICE_MICRO_USD },
        }
      : {}),
  };
}
