// What the platform accepts as payment for credits: x402 v2 `exact` on one EVM network, in one USD
// stablecoin (EIP-3009), to the platform's own address. The ledger builds the PaymentRequirements a 402
// offers from these terms and accepts a payment only for requirements it would have offered itself, so
// nobody (not even the gateway that relays them) can make it credit a payment to another address, in
// another token, or of a fraction of a credit.

/** An EVM address (compared case-insensitively everywhere). */
export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** USDC per CAIP-2 network: address and the token's own EIP-712 domain (values of `@x402/evm`'s default assets). */
export const KNOWN_USDC: Readonly<Record<string, { address: string; name: string; version: string; decimals: number }>> = {
  "eip155:8453": { address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", name: "USD Coin", version: "2", decimals: 6 },
  "eip155:84532": { address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", name: "USDC", version: "2", decimals: 6 },
  "eip155:137": { address: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", name: "USD Coin", version: "2", decimals: 6 },
  "eip155:42161": { address: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", name: "USD Coin", version: "2", decimals: 6 },
};

/** 1000 credits = 1 USD (every listed token has 6 decimals, so a credit is a whole number of atomic units). */
const CREDITS_PER_USD = 1000n;

export interface TopUpTerms {
  network: string;
  /** Token address (checksummed, as listed). */
  asset: string;
  /** The token's EIP-712 domain name and version (what the payer signs under). */
  assetName: string;
  assetVersion: string;
  decimals: number;
  /** The platform's receiving address, as configured. */
  payTo: string;
  /** How long a payer's authorization may take to arrive (x402 maxTimeoutSeconds). */
  maxTimeoutSeconds: number;
  /** The most credits one payment may buy. */
  maxCredits: number;
}

/** x402 v2 PaymentRequirements of the `exact` scheme, as the ledger offers them. */
export interface Requirements {
  scheme: "exact";
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
}

/** Terms for a network and receiving address, in the network's USDC unless `asset` names another listed token. */
export function topUpTerms(opts: {
  network: string;
  payTo: string;
  asset?: string;
  maxTimeoutSeconds: number;
  maxCredits: number;
}): TopUpTerms {
  const usdc = KNOWN_USDC[opts.network];
  if (!usdc) throw new Error(`no known USDC on network "${opts.network}"; known: ${Object.keys(KNOWN_USDC).join(", ")}`);
  if (opts.asset !== undefined && opts.asset.toLowerCase() !== usdc.address.toLowerCase())
    throw new Error(`asset ${opts.asset} is not the USDC of ${opts.network} (${usdc.address})`);
  if (!EVM_ADDRESS.test(opts.payTo)) throw new Error(`payTo ${opts.payTo} is not an address`);
  return {
    network: opts.network,
    asset: usdc.address,
    assetName: usdc.name,
    assetVersion: usdc.version,
    decimals: usdc.decimals,
    payTo: opts.payTo,
    maxTimeoutSeconds: opts.maxTimeoutSeconds,
    maxCredits: opts.maxCredits,
  };
}

/** Atomic units of the asset per credit: a credit is a thousandth of a USD (6 decimals: 1000). */
export function atomicPerCredit(terms: TopUpTerms): bigint {
  return 10n ** BigInt(terms.decimals) / CREDITS_PER_USD;
}

/** The requirements offered for `credits` (a whole number, 1..maxCredits, checked by the caller). */
export function requirementsFor(terms: TopUpTerms, credits: number): Requirements {
  return {
    scheme: "exact",
    network: terms.network,
    amount: (BigInt(credits) * atomicPerCredit(terms)).toString(),
    asset: terms.asset,
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    extra: { name: terms.assetName, version: terms.assetVersion },
  };
}

/**
 * The credits `candidate` buys when it is exactly what requirementsFor would offer; otherwise why not
 * (a string naming the first field that differs).
 */
export function creditsOfRequirements(terms: TopUpTerms, candidate: unknown): { credits: number } | { problem: string } {
  if (typeof candidate !== "object" || candidate === null || Array.isArray(candidate)) return { problem: "requirements must be an object" };
  const r = candidate as Record<string, unknown>;
  if (typeof r.amount !== "string" || !/^[1-9]\d{0,30}$/.test(r.amount))
    return { problem: "amount must be a positive whole number of atomic units" };
  const unit = atomicPerCredit(terms);
  const atomic = BigInt(r.amount);
  if (atomic % unit !== 0n) return { problem: `amount must be a whole number of credits (a multiple of ${unit} atomic units)` };
  const credits = atomic / unit;
  if (credits > BigInt(terms.maxCredits)) return { problem: `amount is above the most one payment may buy (${terms.maxCredits} credits)` };
  const offered = requirementsFor(terms, Number(credits));
  for (const field of ["scheme", "network", "asset", "payTo", "maxTimeoutSeconds"] as const) {
    const given = r[field];
    const same =
      typeof given === "string" && typeof offered[field] === "string"
        ? given.toLowerCase() === (offered[field] as string).toLowerCase()
        : given === offered[field];
    if (!same) return { problem: `${field} is not the platform's (${String(offered[field])})` };
  }
  const extra = r.extra as Record<string, unknown> | undefined;
  if (extra?.name !== offered.extra.name || extra?.version !== offered.extra.version)
    return { problem: `extra must name the token's EIP-712 domain (${offered.extra.name}, version ${offered.extra.version})` };
  return { credits: Number(credits) };
}
