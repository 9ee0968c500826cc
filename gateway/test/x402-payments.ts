// Shared by the x402 top-up tests: a payer wallet (a viem private-key account) funded on the sandbox's
// token through its control API, the official client (@x402/fetch) paying as that wallet, and readers
// of the x402 headers.
import { x402Client, wrapFetchWithPayment } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import type { BackedSystem } from "./backed-system";

/** The platform's receiving address in these tests (no key needed: it only receives). */
export const PLATFORM_PAY_TO = getAddress("0x5af1a0c7e0d1b9e6f2c4d8a3b7e9f1c2d3e4f5a6");

/** A new payer holding `atomic` units of sandbox USDC (6 decimals). */
export async function fundedPayer(sys: BackedSystem, atomic: bigint): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  const res = await fetch(`${sys.sandbox.url}/_control/balances/${account.address}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ balanceAtomic: atomic.toString() }),
  });
  if (res.status !== 200) throw new Error(`funding ${account.address} failed: ${res.status}`);
  return account;
}

/** A token balance on the sandbox chain, in atomic units. */
export async function tokenBalance(sys: BackedSystem, address: string): Promise<bigint> {
  const res = await fetch(`${sys.sandbox.url}/_control/balances/${address}`);
  return BigInt(((await res.json()) as { balanceAtomic: string }).balanceAtomic);
}

/**
 * fetch that pays 402s with `payer` through the official client, authenticated with `key`; every
 * PAYMENT-SIGNATURE it sent is kept in `signatures` (to replay one by hand).
 */
export function payingFetch(sys: BackedSystem, key: string, payer: PrivateKeyAccount): { fetch: typeof fetch; signatures: string[] } {
  const signatures: string[] = [];
  const authed = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    request.headers.set("authorization", `Bearer ${key}`);
    const signature = request.headers.get("payment-signature");
    if (signature) signatures.push(signature);
    return fetch(request);
  };
  // The client refuses to sign more than $1 a payment by default: this agent allows a top-up of up to $10.
  const client = new x402Client().setSpendControls({ maxAmountPerPayment: "$10" });
  registerExactEvmScheme(client, { signer: payer });
  return { fetch: wrapFetchWithPayment(authed, client), signatures };
}

/** A base64 JSON x402 header, decoded. */
export function decodeHeader(value: string | null): any {
  if (value === null) throw new Error("header missing");
  return JSON.parse(Buffer.from(value, "base64").toString("utf8"));
}

export function encodeHeader(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64");
}
