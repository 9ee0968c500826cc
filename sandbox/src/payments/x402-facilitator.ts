// An x402 facilitator for the `exact` scheme on EVM (EIP-3009), verifying real EIP-712 signatures
// against the token's real domain and settling on the in-memory token ledger. Rules and reason
// strings follow the reference facilitator (x402 `exact/facilitator/eip3009.ts`).
import { getAddress, type Address, type Hex } from "viem";
import { FACILITATOR_SIGNER, SANDBOX_CHAIN_ID, SANDBOX_NETWORK, SANDBOX_NETWORK_V1, SANDBOX_USDC, chainIdOf } from "./assets";
import { authorizationShapeProblem, isValidAuthorizationSignature, type WireAuthorization } from "./eip3009";
import type { TokenLedger } from "./token-ledger";
import type { FacilitatorRequest, SettleResponse, VerifyResponse } from "./x402-types";

/** Seconds of validity the authorization must still have (the reference facilitator's block buffer). */
const VALID_BEFORE_BUFFER_S = 6;

/** Test knobs of the facilitator. */
export interface FacilitatorKnobs {
  /** The next N settlements fail after a successful verify (`unexpected_settle_error`). */
  failNextSettles: number;
  /** The next N successful settlements move the funds, then answer only after `settleResponseDelayMs` (a buyer's timeout after settling). */
  delayNextSettleResponses: number;
  settleResponseDelayMs: number;
}

interface Checked {
  version: 1 | 2;
  network: string;
  payer: Address;
  auth: WireAuthorization;
  amount: string;
}

type Verdict = { ok: true; checked: Checked } | { ok: false; reason: string; message: string; payer?: string };

export class Facilitator {
  constructor(
    private readonly ledger: TokenLedger,
    private readonly knobs: FacilitatorKnobs,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** `GET /supported`. */
  supported() {
    return {
      kinds: [
        { x402Version: 2, scheme: "exact", network: SANDBOX_NETWORK },
        { x402Version: 1, scheme: "exact", network: SANDBOX_NETWORK_V1 },
      ],
      extensions: [],
      signers: { "eip155:*": [FACILITATOR_SIGNER] },
    };
  }

  /** `POST /verify`: is the payload a valid payment of exactly these requirements, right now? */
  async verify(req: FacilitatorRequest): Promise<VerifyResponse> {
    const verdict = await this.check(req);
    if (!verdict.ok)
      return {
        isValid: false,
        invalidReason: verdict.reason,
        invalidMessage: verdict.message,
        ...(verdict.payer ? { payer: verdict.payer } : {}),
      };
    return { isValid: true, payer: verdict.checked.payer };
  }

  /** `POST /settle`: re-verifies, then moves the funds and consumes the nonce. */
  async settle(req: FacilitatorRequest): Promise<SettleResponse> {
    const verdict = await this.check(req);
    const network = networkOf(req);
    if (!verdict.ok)
      return {
        success: false,
        errorReason: verdict.reason,
        errorMessage: verdict.message,
        transaction: "",
        network,
        ...(verdict.payer ? { payer: verdict.payer } : {}),
      };
    const { checked } = verdict;
    if (this.knobs.failNextSettles > 0) {
      this.knobs.failNextSettles -= 1;
      return {
        success: false,
        errorReason: "unexpected_settle_error",
        errorMessage: "injected settlement failure",
        transaction: "",
        network,
        payer: checked.payer,
      };
    }
    const result = this.ledger.transfer({
      from: checked.payer,
      to: getAddress(checked.auth.to),
      value: BigInt(checked.auth.value),
      nonce: checked.auth.nonce as Hex,
    });
    if (!result.ok)
      return {
        success: false,
        errorReason: refusalReason(result.reason),
        errorMessage: result.reason,
        transaction: "",
        network,
        payer: checked.payer,
      };
    if (this.knobs.delayNextSettleResponses > 0) {
      this.knobs.delayNextSettleResponses -= 1;
      await new Promise((resolve) => setTimeout(resolve, this.knobs.settleResponseDelayMs).unref());
    }
    return { success: true, transaction: result.transaction, network, payer: checked.payer, amount: checked.amount };
  }

  private async check(req: FacilitatorRequest): Promise<Verdict> {
    const fail = (reason: string, message: string, payer?: string): Verdict => ({
      ok: false,
      reason,
      message,
      ...(payer ? { payer } : {}),
    });
    if (req.x402Version !== 1 && req.x402Version !== 2) return fail("invalid_x402_version", "x402Version must be 1 or 2");
    const version = req.x402Version;
    const requirements = asRecord(req.paymentRequirements);
    const payload = asRecord(req.paymentPayload);
    if (!requirements) return fail("invalid_payment_requirements", "paymentRequirements must be an object");
    if (!payload) return fail("invalid_payload", "paymentPayload must be an object");

    const amount = version === 2 ? requirements.amount : requirements.maxAmountRequired;
    if (
      typeof amount !== "string" ||
      !/^\d+$/.test(amount) ||
      typeof requirements.payTo !== "string" ||
      typeof requirements.asset !== "string" ||
      typeof requirements.network !== "string"
    ) {
      return fail("invalid_payment_requirements", "requirements need network, asset, payTo and an amount");
    }
    const scheme = version === 2 ? asRecord(payload.accepted)?.scheme : payload.scheme;
    if (requirements.scheme !== "exact" || scheme !== "exact") return fail("unsupported_scheme", "only the exact scheme is supported");
    const payloadNetwork = version === 2 ? asRecord(payload.accepted)?.network : payload.network;
    if (payloadNetwork !== requirements.network) return fail("invalid_network", "payload network differs from the requirements");
    const chainId = chainIdOf(requirements.network);
    if (chainId === undefined) return fail("invalid_network", `unknown network ${requirements.network}`);
    // Only one token exists on the sandbox chain; anything else "has no bytecode".
    if (chainId !== SANDBOX_CHAIN_ID || requirements.asset.toLowerCase() !== SANDBOX_USDC.address.toLowerCase()) {
      return fail("invalid_payment_requirements", "asset is not a known token on this network");
    }
    const extra = asRecord(requirements.extra);
    if (typeof extra?.name !== "string" || typeof extra?.version !== "string")
      return fail("invalid_exact_evm_missing_eip712_domain", "requirements.extra must carry name and version");

    const inner = asRecord(payload.payload);
    const shape = authorizationShapeProblem(inner?.authorization);
    if (!inner || shape || typeof inner.signature !== "string")
      return fail("invalid_payload", shape ?? "payload needs signature and authorization");
    const auth = inner.authorization as WireAuthorization;
    const payer = getAddress(auth.from);

    // The token verifies against its own domain, whatever name the offer advertised.
    const domain = { name: SANDBOX_USDC.name, version: SANDBOX_USDC.version, chainId, verifyingContract: SANDBOX_USDC.address };
    if (!(await isValidAuthorizationSignature(domain, auth, inner.signature)))
      return fail("invalid_exact_evm_payload_signature", "signature does not match the authorization", payer);
    if (getAddress(auth.to) !== getAddress(requirements.payTo))
      return fail("invalid_exact_evm_payload_recipient_mismatch", "authorization.to differs from payTo", payer);
    const nowS = Math.floor(this.nowMs() / 1000);
    if (BigInt(auth.validBefore) < BigInt(nowS + VALID_BEFORE_BUFFER_S))
      return fail("invalid_exact_evm_payload_authorization_valid_before", "authorization expired", payer);
    if (BigInt(auth.validAfter) > BigInt(nowS))
      return fail("invalid_exact_evm_payload_authorization_valid_after", "authorization not yet valid", payer);
    if (auth.value !== amount) {
      return fail(
        version === 2 ? "invalid_exact_evm_payload_authorization_value_mismatch" : "invalid_exact_evm_payload_authorization_value",
        `value ${auth.value} differs from amount ${amount}`,
        payer,
      );
    }
    const refusal = this.ledger.check({ from: payer, to: getAddress(auth.to), value: BigInt(auth.value), nonce: auth.nonce as Hex });
    if (refusal) return fail(refusalReason(refusal), refusal, payer);
    return { ok: true, checked: { version, network: requirements.network, payer, auth, amount } };
  }
}

function refusalReason(refusal: "nonce_already_used" | "insufficient_funds"): string {
  return refusal === "nonce_already_used" ? "invalid_exact_evm_nonce_already_used" : "insufficient_funds";
}

function networkOf(req: FacilitatorRequest): string {
  const network = asRecord(req.paymentRequirements)?.network;
  return typeof network === "string" ? network : "";
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
