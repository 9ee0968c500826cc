// Test-side payer for the sandbox's own tests: signs EIP-3009 authorizations (good and deliberately
// bad ones) and builds x402 payment headers and MPP credentials by hand, so every rejection rule of
// the sellers and the facilitator can be exercised. Production paying code lives in the executor.
import { encodePacked, keccak256, toHex, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { randomBytes } from "node:crypto";
import { SANDBOX_CHAIN_ID, SANDBOX_USDC } from "../../src/payments/assets";

export const TRANSFER_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

export function newWallet(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

export interface AuthorizationInput {
  to: string;
  value: string;
  validAfter?: number;
  validBefore?: number;
  nonce?: Hex;
  /** Domain name to sign under (default the token's real one). */
  domainName?: string;
  /** Sign as `signer` but claim `from` (to test signature/from mismatch). */
  from?: Address;
}

/** A signed EIP-3009 authorization with wire-format (string) fields. */
export async function signAuthorization(signer: PrivateKeyAccount, input: AuthorizationInput) {
  const now = Math.floor(Date.now() / 1000);
  const authorization = {
    from: input.from ?? signer.address,
    to: input.to as Address,
    value: input.value,
    validAfter: String(input.validAfter ?? now - 600),
    validBefore: String(input.validBefore ?? now + 300),
    nonce: input.nonce ?? toHex(randomBytes(32)),
  };
  const signature = await signer.signTypedData({
    domain: {
      name: input.domainName ?? SANDBOX_USDC.name,
      version: SANDBOX_USDC.version,
      chainId: SANDBOX_CHAIN_ID,
      verifyingContract: SANDBOX_USDC.address,
    },
    types: TRANSFER_TYPES,
    primaryType: "TransferWithAuthorization",
    message: {
      from: signer.address,
      to: authorization.to,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce,
    },
  });
  return { authorization, signature };
}

export function base64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64");
}

export function fromBase64Json<T = Record<string, unknown>>(value: string | null): T {
  if (value === null) throw new Error("header missing");
  return JSON.parse(Buffer.from(value, "base64").toString("utf8")) as T;
}

/** Parsed `Payment` challenges of a WWW-Authenticate value (the quoted-string form the sandbox writes). */
export function parsePaymentChallenges(value: string | null): Array<Record<string, string>> {
  if (!value) return [];
  return value
    .split(/,?\s*(?=Payment\s)/)
    .filter((part) => part.startsWith("Payment "))
    .map((part) =>
      Object.fromEntries(
        [...part.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1] as string, (m[2] as string).replace(/\\(.)/g, "$1")]),
      ),
    );
}

export function decodeB64Url<T = Record<string, unknown>>(value: string): T {
  return JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as T;
}

/** nonce = keccak256(challenge.id ‖ challenge.realm), as MPP `evm` authorization credentials bind it. */
export function challengeNonce(id: string, realm: string): Hex {
  return keccak256(encodePacked(["string", "string"], [id, realm]));
}

/** An `Authorization: Payment ...` value for an `evm`/`charge` challenge; `tamper` bends any part. */
export async function mppCredential(
  signer: PrivateKeyAccount,
  challenge: Record<string, string>,
  tamper: { value?: string; to?: string; nonce?: Hex; challenge?: Record<string, string>; type?: string; validBefore?: number } = {},
): Promise<string> {
  const request = decodeB64Url<{ amount: string; recipient: string }>(challenge.request as string);
  const { authorization, signature } = await signAuthorization(signer, {
    to: tamper.to ?? request.recipient,
    value: tamper.value ?? request.amount,
    validAfter: 0,
    ...(tamper.validBefore !== undefined ? { validBefore: tamper.validBefore } : {}),
    nonce: tamper.nonce ?? challengeNonce(challenge.id as string, challenge.realm as string),
  });
  const credential = {
    challenge: { ...challenge, ...tamper.challenge },
    payload: { type: tamper.type ?? "authorization", ...authorization, signature },
    source: `did:pkh:eip155:${SANDBOX_CHAIN_ID}:${signer.address}`,
  };
  return `Payment ${Buffer.from(JSON.stringify(credential)).toString("base64url")}`;
}
