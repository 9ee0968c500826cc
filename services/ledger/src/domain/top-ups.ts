// TopUpWithPayment and QuoteTopUp: money in, owned by the ledger. The gateway relays the payer's
// signed x402 payment; the ledger checks it is for its own terms, has the facilitator verify it,
// records it `pending` (one record per payment: network, asset, payer, nonce), has it settled, and
// only then credits the wallet, in the same store operation that marks it `credited`. A payment the
// facilitator refuses credits nothing (`failed`, or nothing written when it never verified). A settle
// whose answer is lost leaves the record `pending`: it is asked again (by a replay of the same payment,
// or by the reconciler) and credited at most once, only on evidence; what has none waits for an operator.
import type { Logger } from "@agentic/platform";
import { LedgerError, invalidField } from "./errors";
import { requireCredits, requireId } from "./validate";
import { topUpIdOf, type TopUpRecord } from "./top-up";
import type { Wallet } from "./types";
import type { LedgerMetrics, LedgerStore } from "./ports";
import type { Facilitator, FacilitatorBody } from "./facilitator-port";
import { acceptedTopUp } from "./top-up-acceptance";
import { readExactPayment } from "./top-up-payment";
import { atomicPerCredit, requirementsFor, type Requirements, type TopUpTerms } from "./top-up-terms";

/** The facilitator's reason when the authorization's nonce was consumed on chain already. */
const NONCE_ALREADY_USED = "invalid_exact_evm_nonce_already_used";

export interface TopUpResult {
  topUpId: string;
  amountCredits: number;
  /** amountCredits the first time; 0 on a replay. */
  creditedCredits: number;
  replayed: boolean;
  wallet: Wallet;
  /** The facilitator's SettleResponse, JSON (PAYMENT-RESPONSE). */
  settlement: string;
}

export interface TopUpDeps {
  store: LedgerStore;
  /** Undefined: this ledger takes no payments (TOP_UP_UNAVAILABLE). */
  terms?: TopUpTerms;
  facilitator?: Facilitator;
  /** A pending settlement is asked again only once its last attempt is this old (≥ the facilitator's timeout). */
  retryAfterMs: number;
  clock?: () => Date;
  logger?: Logger;
  metrics: LedgerMetrics;
}

const error = (code: string, message: string, hint: string, details?: Record<string, unknown>) =>
  new LedgerError("failed_precondition", code, message, hint, details);

const unavailable = () => error("TOP_UP_UNAVAILABLE", "This API takes no payments for credits.", "Ask the operator for credits.");

const invalid = (reason: string, message?: string) =>
  error(
    "PAYMENT_INVALID",
    `The payment was refused (${reason}${message ? `: ${message}` : ""}); nothing was credited.`,
    "Sign a new payment for the requirements of PAYMENT-REQUIRED.",
    { reason },
  );

const failed = (record: TopUpRecord) =>
  error(
    "PAYMENT_FAILED",
    `The payment could not be settled (${record.failureReason ?? "settlement_failed"}); nothing was credited.`,
    "Sign a new payment (a new nonce) for the requirements of PAYMENT-REQUIRED.",
    {
      reason: record.failureReason ?? "settlement_failed",
      topUpId: record.topUpId,
      ...(record.settlement ? { settlement: record.settlement } : {}),
    },
  );

const pending = (topUpId: string, retryAfterSeconds: number) =>
  error(
    "PAYMENT_PENDING",
    "The payment's settlement is not confirmed yet; nothing is credited until it is.",
    "Send the same PAYMENT-SIGNATURE again after Retry-After: a payment is credited once, never twice.",
    { topUpId, retryAfterSeconds },
  );

const unverified = (retryAfterSeconds: number) =>
  error(
    "PAYMENT_UNVERIFIED",
    "The payment could not be verified now; nothing was written.",
    "Send the same PAYMENT-SIGNATURE again after Retry-After.",
    { retryAfterSeconds },
  );

const alreadyUsed = () =>
  new LedgerError(
    "already_exists",
    "PAYMENT_ALREADY_USED",
    "This payment was already used for another account.",
    "Sign a new payment for the requirements of PAYMENT-REQUIRED.",
  );

export type TopUps = ReturnType<typeof createTopUps>;

export function createTopUps(deps: TopUpDeps) {
  const { store, metrics } = deps;
  const now = deps.clock ?? (() => new Date());
  const retryAfterSeconds = Math.max(1, Math.ceil(deps.retryAfterMs / 1000));

  function configured(): { terms: TopUpTerms; facilitator: Facilitator } {
    if (!deps.terms || !deps.facilitator) throw unavailable();
    return { terms: deps.terms, facilitator: deps.facilitator };
  }

  const bodyOf = (record: TopUpRecord): FacilitatorBody => ({
    x402Version: 2,
    paymentPayload: JSON.parse(record.payload),
    paymentRequirements: JSON.parse(record.requirements),
  });

  /** What a known payment answers: its first result (credited: a replay), or its state. */
  async function answer(record: TopUpRecord, userId: string): Promise<TopUpResult> {
    if (record.userId !== userId) throw alreadyUsed();
    if (record.state === "failed") throw failed(record);
    if (record.state === "pending") throw pending(record.topUpId, retryAfterSeconds);
    metrics.topUp("replayed");
    return {
      topUpId: record.topUpId,
      amountCredits: record.amountCredits,
      creditedCredits: 0,
      replayed: true,
      wallet: await store.getWallet(userId),
      settlement: record.settlement ?? "",
    };
  }

  /** Ends a pending record with `outcome`; a record ended meanwhile (another replica) answers as it ended. */
  async function finish(record: TopUpRecord, outcome: Parameters<LedgerStore["finishTopUp"]>[0]["outcome"]): Promise<TopUpResult> {
    const result = await store.finishTopUp({ topUpId: record.topUpId, outcome, now: now() });
    if (result.status === "unknown") throw new Error(`top-up ${record.topUpId} vanished while pending`);
    if (result.status === "already") return answer(result.record, record.userId);
    if (result.record.state === "failed") {
      metrics.topUp("failed");
      throw failed(result.record);
    }
    metrics.topUp("credited");
    metrics.topUpCredited(result.record.amountCredits);
    deps.logger?.info(
      { topUpId: record.topUpId, userId: record.userId, amountCredits: record.amountCredits, attempts: record.attempts },
      "top-up credited",
    );
    return {
      topUpId: record.topUpId,
      amountCredits: record.amountCredits,
      creditedCredits: result.record.amountCredits,
      replayed: false,
      wallet: result.wallet!,
      settlement: result.record.settlement ?? "",
    };
  }

  /**
   * Asks the facilitator to settle a pending record (attempt `record.attempts`). A retry follows an
   * attempt whose answer was lost: only a success credits it, or a consumed nonce with evidence that the
   * transfer reached us (the facilitator names the transaction of the earlier settle). A consumed nonce
   * without it proves nothing (the payer may have burnt the nonce on chain meanwhile), and any other
   * refusal may be a consequence of that earlier transfer (e.g. the authorization expired since): the
   * record stays pending for an operator (top-up-resolution.ts, `npm run ledger -- top-ups`).
   */
  async function settle(record: TopUpRecord, facilitator: Facilitator): Promise<TopUpResult> {
    const answer = await facilitator.settle(bodyOf(record));
    const retry = record.attempts > 1;
    if (answer.kind === "settled")
      return finish(record, {
        state: "credited",
        ...(answer.transaction ? { transaction: answer.transaction } : {}),
        settlement: JSON.stringify(answer.response),
      });
    if (answer.kind === "refused" && !retry)
      return finish(record, { state: "failed", reason: answer.reason, settlement: JSON.stringify(answer.response) });
    const evidence = answer.kind === "refused" && typeof answer.response.transaction === "string" ? answer.response.transaction : "";
    if (answer.kind === "refused" && answer.reason === NONCE_ALREADY_USED && evidence) {
      deps.logger?.warn(
        { topUpId: record.topUpId, attempts: record.attempts, transaction: evidence },
        "pending top-up: the facilitator names the earlier settle's transaction for the used nonce; crediting it",
      );
      const settlement = {
        success: true,
        transaction: evidence,
        network: record.network,
        payer: record.payer,
        amount: record.amountAtomic,
      };
      return finish(record, { state: "credited", transaction: evidence, settlement: JSON.stringify(settlement) });
    }
    metrics.topUp("pending");
    if (answer.kind === "refused" && answer.reason === NONCE_ALREADY_USED)
      deps.logger?.error(
        { topUpId: record.topUpId, payer: record.payer, nonce: record.nonce, attempts: record.attempts },
        "pending top-up: nonce already used and no evidence the transfer reached us; left pending for an operator (npm run ledger -- top-ups)",
      );
    else if (answer.kind === "refused")
      deps.logger?.error(
        { topUpId: record.topUpId, reason: answer.reason, attempts: record.attempts },
        "pending top-up refused on a retry; left pending: check the chain for its transfer",
      );
    else
      deps.logger?.warn(
        { topUpId: record.topUpId, error: answer.error, attempts: record.attempts },
        "top-up settlement outcome unknown; left pending",
      );
    throw pending(record.topUpId, retryAfterSeconds);
  }

  return {
    /** The requirements a 402 offers for `amountCredits`. */
    quote(amountCredits: number): Requirements {
      const { terms } = configured();
      const credits = requireCredits("amount_credits", amountCredits);
      if (credits > terms.maxCredits)
        throw invalidField(
          "amount_credits",
          `amount_credits must be at most ${terms.maxCredits}.`,
          `Buy at most ${terms.maxCredits} credits per payment.`,
        );
      return requirementsFor(terms, credits);
    },

    async topUpWithPayment(req: { userId: string; requirementsJson: string; paymentPayloadJson: string }): Promise<TopUpResult> {
      const { terms, facilitator } = configured();
      const userId = requireId("user_id", req.userId);
      const payment = readExactPayment(req.paymentPayloadJson);
      if ("problem" in payment) {
        metrics.topUp("invalid");
        throw invalid("invalid_payload", payment.problem);
      }
      let relayed: unknown;
      if (req.requirementsJson) {
        try {
          relayed = JSON.parse(req.requirementsJson);
        } catch {
          throw invalidField("requirements_json", "requirements_json is not JSON.", "Send the requirements QuoteTopUp gave, or nothing.");
        }
      }
      const checked = acceptedTopUp(terms, payment.accepted, relayed);
      if ("problem" in checked) {
        metrics.topUp("invalid");
        throw invalid(checked.reason, checked.problem);
      }
      const { requirements } = checked;
      const auth = payment.authorization;
      const topUpId = topUpIdOf({ network: terms.network, asset: terms.asset, payer: auth.from, nonce: auth.nonce });
      const known = await store.getTopUp(topUpId);
      if (known) return known.state === "pending" ? resume(known, facilitator) : answer(known, userId);

      const body: FacilitatorBody = { x402Version: 2, paymentPayload: payment.payload, paymentRequirements: requirements };
      const verdict = await facilitator.verify(body);
      if (verdict.kind === "unknown") {
        metrics.topUp("unverified");
        deps.logger?.warn({ topUpId, error: verdict.error }, "top-up payment not verified: the facilitator did not answer");
        throw unverified(retryAfterSeconds);
      }
      if (verdict.kind === "invalid") {
        // A concurrent request with the same payment may have settled it meanwhile: answer that.
        const settled = verdict.reason === NONCE_ALREADY_USED ? await store.getTopUp(topUpId) : null;
        if (settled) return settled.state === "pending" ? resume(settled, facilitator) : answer(settled, userId);
        metrics.topUp("invalid");
        throw invalid(verdict.reason, verdict.message);
      }
      const at = now();
      const record: TopUpRecord = {
        topUpId,
        userId,
        network: terms.network,
        asset: terms.asset.toLowerCase(),
        payer: auth.from.toLowerCase(),
        nonce: auth.nonce.toLowerCase(),
        payTo: terms.payTo,
        amountAtomic: (BigInt(checked.credits) * atomicPerCredit(terms)).toString(),
        amountCredits: checked.credits,
        state: "pending",
        createdAt: at,
        attemptedAt: at,
        attempts: 1,
        requirements: JSON.stringify(requirements),
        payload: JSON.stringify(payment.payload),
      };
      const started = await store.startTopUp({ record, staleBefore: new Date(at.getTime() - deps.retryAfterMs), now: at });
      if (started.status === "exists")
        return started.record.state === "pending" ? resume(started.record, facilitator) : answer(started.record, userId);
      return settle(started.record, facilitator);

      /** A pending payment presented again: asked again once its last attempt is stale, else "pending". */
      async function resume(record: TopUpRecord, f: Facilitator): Promise<TopUpResult> {
        if (record.userId !== userId) throw alreadyUsed();
        const at = now();
        const taken = await store.startTopUp({ record, staleBefore: new Date(at.getTime() - deps.retryAfterMs), now: at });
        if (taken.status !== "retry") return answer(taken.record, userId);
        return settle(taken.record, f);
      }
    },

    /** Asks again for up to `limit` pending top-ups whose last attempt is stale; returns how many ended. */
    async reconcilePending(limit: number): Promise<number> {
      if (!deps.terms || !deps.facilitator) return 0;
      const at = now();
      const staleBefore = new Date(at.getTime() - deps.retryAfterMs);
      let ended = 0;
      for (const stale of await store.listStalePendingTopUps(staleBefore, limit)) {
        const taken = await store.startTopUp({ record: stale, staleBefore, now: at });
        if (taken.status !== "retry") continue;
        try {
          await settle(taken.record, deps.facilitator);
          ended += 1;
        } catch (err) {
          if (err instanceof LedgerError && err.code === "PAYMENT_FAILED") ended += 1;
          else if (!(err instanceof LedgerError)) deps.logger?.error({ err, topUpId: stale.topUpId }, "top-up reconciliation failed");
        }
      }
      return ended;
    },
  };
}
