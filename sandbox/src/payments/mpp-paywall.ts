// The MPP seller in front of a paid vendor, method `evm`, intent `charge`, credential type
// `authorization` (EIP-3009 with nonce = keccak256(id ‖ realm)): an MPP method that can be
// emulated offline with real signatures. Challenge → verify → vendor → settle + `Payment-Receipt`;
// nothing is settled when the vendor fails, and a challenge id pays once.
import { randomBytes } from "node:crypto";
import { Json } from "ox";
import { encodePacked, getAddress, keccak256, type Hex } from "viem";
import { MPP_RECIPIENT, PERMIT2_ADDRESS, SANDBOX_CHAIN_ID, SANDBOX_USDC } from "./assets";
import { authorizationShapeProblem, isValidAuthorizationSignature, type WireAuthorization } from "./eip3009";
import {
  computeChallengeId,
  decodeBase64UrlJson,
  encodeJcs,
  formatChallenge,
  isBoundChallenge,
  parseCredential,
  rfc3339,
  type ChallengeParams,
} from "./mpp-challenge";
import type { GateRequest, GateResult, PaymentGate } from "./payment-gate";
import type { TokenLedger } from "./token-ledger";
import type { VendorReply } from "../http/vendor";

/** Test knobs of the MPP seller (mutable through the control API). */
export interface MppKnobs {
  /** Lifetime of a challenge (`expires` = now + this). */
  challengeTtlSeconds: number;
  /** Replace fields of the charge request (advertise another price, token, recipient or chain). */
  requestOverrides: { amount?: string; currency?: string; recipient?: string; chainId?: number; credentialTypes?: string[] };
  /** Offer a `stripe` challenge (which the sandbox cannot settle) before the `evm` one. */
  prependUnsupportedChallenge: boolean;
  /** Settle even when the vendor failed (a misbehaving seller: the buyer paid for an error answer). */
  settleFailedCalls: boolean;
}

type Problem =
  | "payment-required"
  | "malformed-credential"
  | "invalid-challenge"
  | "payment-expired"
  | "verification-failed"
  | "payment-insufficient"
  | "method-unsupported";

const PROBLEM_TITLES: Record<Problem, string> = {
  "payment-required": "Payment Required",
  "malformed-credential": "Malformed Credential",
  "invalid-challenge": "Invalid Challenge",
  "payment-expired": "Payment Expired",
  "verification-failed": "Verification Failed",
  "payment-insufficient": "Payment Insufficient",
  "method-unsupported": "Method Unsupported",
};

export class MppPaywall implements PaymentGate {
  private readonly secret = randomBytes(32);
  private readonly usedIds = new Set<string>();

  constructor(
    private readonly ledger: TokenLedger,
    private readonly knobs: MppKnobs,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async check({ req, price, host }: GateRequest): Promise<GateResult> {
    const realm = host;
    const request = this.chargeRequest(price.amountAtomic, price.description);
    const reject = (problem: Problem, detail: string): GateResult => ({
      kind: "reply",
      reply: this.challengeReply(realm, request, problem, detail),
    });

    const raw = req.headers["payment-authorization"] ?? req.headers["authorization"];
    if (!raw || !/^payment\s/i.test(raw)) return reject("payment-required", "Payment is required.");
    const credential = parseCredential(raw);
    if ("malformed" in credential) return reject("malformed-credential", credential.malformed);
    const ch = credential.challenge;

    if (!isBoundChallenge(this.secret, ch) || ch.realm !== realm) return reject("invalid-challenge", "The challenge was not issued here.");
    if (ch.expires !== undefined && Date.parse(ch.expires) <= this.nowMs()) return reject("payment-expired", "The challenge has expired.");
    if (this.usedIds.has(ch.id)) return reject("invalid-challenge", "The challenge was already used.");
    if (ch.method !== "evm" || ch.intent !== "charge")
      return { kind: "reply", reply: problemReply(400, "method-unsupported", `${ch.method}/${ch.intent} cannot be settled here.`) };
    // The HMAC proves we issued the challenge; the route's current price must still be what it asked.
    if (Json.canonicalize(decodeBase64UrlJson(ch.request) ?? null) !== Json.canonicalize(request))
      return reject("invalid-challenge", "The challenge was issued for a different charge.");

    const payload = credential.payload;
    if (payload.type !== "authorization") return reject("verification-failed", 'Only credential type "authorization" is accepted.');
    const shape = authorizationShapeProblem(payload);
    if (shape || typeof payload.signature !== "string") return reject("verification-failed", shape ?? "signature is required");
    const auth = payload as unknown as WireAuthorization;
    const expectedNonce = keccak256(encodePacked(["string", "string"], [ch.id, ch.realm]));
    if (auth.nonce.toLowerCase() !== expectedNonce) return reject("verification-failed", "nonce is not bound to this challenge.");
    if (getAddress(auth.to) !== getAddress(request.recipient)) return reject("verification-failed", "to differs from the recipient.");
    if (auth.value !== request.amount) return reject("verification-failed", "value differs from the amount.");
    const nowS = BigInt(Math.floor(this.nowMs() / 1000));
    if (BigInt(auth.validBefore) < nowS) return reject("verification-failed", "authorization expired.");
    if (BigInt(auth.validAfter) > nowS) return reject("verification-failed", "authorization not yet valid.");
    // Only one token exists on the sandbox chain, and it verifies against its own EIP-712 domain.
    if (request.methodDetails.chainId !== SANDBOX_CHAIN_ID || getAddress(request.currency) !== SANDBOX_USDC.address)
      return reject("verification-failed", "unknown token.");
    const domain = {
      name: SANDBOX_USDC.name,
      version: SANDBOX_USDC.version,
      chainId: SANDBOX_CHAIN_ID,
      verifyingContract: SANDBOX_USDC.address,
    };
    if (!(await isValidAuthorizationSignature(domain, auth, payload.signature as string)))
      return reject("verification-failed", "signature does not match the authorization.");
    const transfer = { from: getAddress(auth.from), to: getAddress(auth.to), value: BigInt(auth.value), nonce: auth.nonce as Hex };
    const refusal = this.ledger.check(transfer);
    if (refusal === "insufficient_funds") return reject("payment-insufficient", "The payer's balance is too low.");
    if (refusal) return reject("verification-failed", "The authorization nonce was already used.");

    return {
      kind: "paid",
      settle: async (vendorReply) => {
        if (vendorReply.status >= 400 && !this.knobs.settleFailedCalls) return { reply: vendorReply, settled: false };
        // Re-checked here: a concurrent request with the same credential may have settled meanwhile.
        if (this.usedIds.has(ch.id))
          return { reply: this.challengeReply(realm, request, "invalid-challenge", "The challenge was already used."), settled: false };
        const result = this.ledger.transfer(transfer);
        if (!result.ok) {
          const problem = result.reason === "insufficient_funds" ? "payment-insufficient" : "verification-failed";
          return { reply: this.challengeReply(realm, request, problem, result.reason), settled: false };
        }
        this.usedIds.add(ch.id);
        const receipt = { method: "evm", reference: result.transaction, status: "success", timestamp: rfc3339(new Date(this.nowMs())) };
        return {
          reply: { ...vendorReply, headers: { ...vendorReply.headers, "Payment-Receipt": encodeJcs(receipt), "Cache-Control": "private" } },
          settled: true,
        };
      },
    };
  }

  /** The `charge` request this route asks for (before JCS encoding). */
  private chargeRequest(amount: string, description: string) {
    const o = this.knobs.requestOverrides;
    return {
      amount: o.amount ?? amount,
      currency: o.currency ?? SANDBOX_USDC.address,
      recipient: o.recipient ?? MPP_RECIPIENT,
      description,
      methodDetails: {
        chainId: o.chainId ?? SANDBOX_CHAIN_ID,
        credentialTypes: o.credentialTypes ?? ["authorization"],
        decimals: SANDBOX_USDC.decimals,
        permit2Address: PERMIT2_ADDRESS,
      },
    };
  }

  private challengeReply(realm: string, request: ReturnType<MppPaywall["chargeRequest"]>, problem: Problem, detail: string): VendorReply {
    const expires = rfc3339(new Date(this.nowMs() + this.knobs.challengeTtlSeconds * 1000));
    const challenges = [this.challenge({ realm, method: "evm", intent: "charge", request: encodeJcs(request), expires })];
    if (this.knobs.prependUnsupportedChallenge) {
      const stripeRequest = encodeJcs({
        amount: request.amount,
        currency: "usd",
        methodDetails: { networkId: "profile_sandbox", paymentMethodTypes: ["card"] },
      });
      challenges.unshift(this.challenge({ realm, method: "stripe", intent: "charge", request: stripeRequest, expires }));
    }
    const reply = problemReply(402, problem, detail);
    return { ...reply, headers: { ...reply.headers, "WWW-Authenticate": challenges.map(formatChallenge) } };
  }

  /**
   * Every challenge gets a random `opaque` (bound into the id) so two challenges issued in the same
   * second for the same price differ: ids are single-use, and identical ids would let one payer's
   * settlement consume another's challenge.
   */
  private challenge(p: Omit<ChallengeParams, "id" | "opaque">): ChallengeParams {
    const params = { ...p, opaque: encodeJcs({ n: randomBytes(12).toString("base64url") }) };
    return { id: computeChallengeId(this.secret, params), ...params };
  }
}

function problemReply(status: number, problem: Problem, detail: string): VendorReply {
  return {
    status,
    contentType: "application/problem+json",
    headers: { "Cache-Control": "no-store" },
    body: { type: `https://paymentauth.org/problems/${problem}`, title: PROBLEM_TITLES[problem], status, detail },
  };
}
