// Execute, orchestrated: plan the execution (validate, pick routes, build requests), run the attempts
// (hold, provider call over the route's rail, capture or release) with the Idempotency-Key claimed by
// the first hold in the same ledger call (claimed first instead when planning refuses or the plan acts
// before its hold: a completed key answers its stored result, whatever the catalog says now),
// and store the outcome for the key (a success off the answer's path: its capture carries it too).
// A quote plans the same way and reserves the first route's price instead of running it.
// Rails never know the capability; providers never know the rail: the planner pairs them per route.
import { AppError, internalError, newId } from "@agentic/platform/core";
import type { ExecuteResponse, QuoteResponse } from "@agentic/proto/executor/v1";
import { idempotencyInProgress } from "./errors";
import type { CallBudget, ExecuteCommand, Execution, StoredOutcome } from "./execution";
import { claimRequest, IdempotencyGuard, KeyClaimAnswered, type IdempotencyKeyRef } from "./idempotency";
import { createPlanner } from "./plan-execution";
import type { ExecutorDeps } from "./ports";
import { createQuoter } from "./quote-execution";
import { requestHash } from "./request-hash";
import { createAttemptRunner, newProgress, type AttemptProgress } from "./run-attempts";

export interface Executor {
  execute(cmd: ExecuteCommand, budget: CallBudget): Promise<ExecuteResponse>;
  /** Reserves the price of the route `execute` would run for this body; an execute with the quote's id runs there at that price. */
  quote(cmd: ExecuteCommand, budget: CallBudget): Promise<QuoteResponse>;
  /** Resolves once every answer already given is stored for its key (on stop, after the last call). */
  drain(): Promise<void>;
}

/**
 * Whether an error is the execution's final answer, stored for its key. Two are not: a capture the
 * bus never confirmed (whether it charged is settled later; the capture itself carries the answer)
 * and a fenced attempt (another run of the key owns it; a retry gets that run's answer).
 */
function isFinalAnswer(err: AppError): boolean {
  return err.code !== "SETTLEMENT_UNCONFIRMED" && err.code !== "EXECUTION_FENCED";
}

/**
 * Whether the first hold may claim the key: nothing the run does before it may act for a request the
 * key could answer otherwise (a replay, another request): no approval is used, no vendor quota taken.
 */
function claimsOnItsFirstHold(execution: Execution): boolean {
  return !execution.useApproval && execution.prepared.every((p) => !p.route.vendorQuota);
}

/** What planning answered: the execution to run, or its refusal (thrown as the run's answer). */
type Planned = { ok: true; execution: Execution } | { ok: false; error: unknown };

/** `email.inbox.buy` for (`email`, `inbox-buy`): a capability id is its key's parts joined with "-" (parts never hold one). */
function capabilityKeyOf(cmd: Pick<ExecuteCommand, "domainKey" | "capabilityId">): string {
  return `${cmd.domainKey}.${cmd.capabilityId.replace(/-/g, ".")}`;
}

export function createExecutor(deps: ExecutorDeps): Executor {
  const { settings, logger } = deps;
  const guard = new IdempotencyGuard(
    deps.ledger,
    deps.records,
    { leaseMs: settings.idempotencyLeaseMs, waitMs: settings.idempotencyWaitMs, deadlineMs: settings.dependencyDeadlineMs },
    logger,
  );
  const plan = createPlanner(deps);
  const attempts = createAttemptRunner(deps);
  const quote = createQuoter(deps, plan);
  /** Successes being stored for their keys after they were answered. */
  const storing = new Set<Promise<void>>();

  /** Plans the execution once; a refusal is kept as the plan's answer, for the run that answers the key. */
  async function planOnce(cmd: ExecuteCommand, executionId: string, budget: CallBudget): Promise<Planned> {
    try {
      return { ok: true, execution: await plan(cmd, executionId, budget) };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /**
   * Answers the planning refusal, or uses the approval the plan carries (once nothing else refused it) and
   * runs its attempts. An approval whose run held nothing (the hold refused: credits, a spend policy) is
   * given back: no provider was called, so the person's approval still stands for a call that can pay.
   */
  async function run(planned: Planned, budget: CallBudget, progress: AttemptProgress = newProgress()): Promise<ExecuteResponse> {
    if (!planned.ok) throw planned.error;
    const { execution } = planned;
    const giveBack = await execution.useApproval?.();
    try {
      return await attempts(execution, budget, progress);
    } catch (err) {
      if (giveBack && progress.holds === 0)
        await giveBack().catch((giveBackErr: unknown) =>
          logger.warn({ err: giveBackErr, executionId: execution.id }, "could not give back the approval of a call that ran nothing"),
        );
      throw err;
    }
  }

  async function execute(cmd: ExecuteCommand, budget: CallBudget): Promise<ExecuteResponse> {
    const executionId = cmd.executionId ?? newId("execution");
    // Planning only reads, so it may come before the claim, and it is done once: the claim-first way
    // below runs (or answers the refusal of) this same plan.
    const planned = await planOnce(cmd, executionId, budget);
    if (!cmd.idempotencyKey) return run(planned, budget);

    const ref = {
      userId: cmd.userId,
      key: cmd.idempotencyKey,
      requestHash: requestHash(cmd.domainKey, cmd.capabilityId, cmd.body),
      executionId,
      capabilityKey: capabilityKeyOf(cmd),
    };
    // The first hold claims the key in the same ledger call (one round trip, one transaction). A plan
    // that would act before its hold (use an approval, take a vendor quota) or that planning refused goes
    // the claim-first way below, so a replay still answers what the key answered, even after the
    // capability was gated or its contract changed.
    if (planned.ok && claimsOnItsFirstHold(planned.execution)) {
      const execution = planned.execution;
      const progress = newProgress();
      try {
        return await answerForKey(
          ref,
          () => attempts({ ...execution, claim: claimRequest(ref, settings.idempotencyLeaseMs) }, budget, progress),
          progress,
        );
      } catch (err) {
        if (!(err instanceof KeyClaimAnswered)) throw err;
        const meaning = guard.meaningOf(ref, err.claim);
        if (meaning.kind === "replay") return replay(meaning.outcome);
        // In progress elsewhere: wait for its answer as a claim-first request does (begin polls the claim).
      }
    }
    const begun = await guard.begin(ref, () => budget.remainingMs());
    if (begun.kind === "replay") return replay(begun.outcome);
    const progress = newProgress();
    return answerForKey(ref, () => run(planned, budget, progress), progress);
  }

  /** As decoded for a replay: a success marked `replayed`, an error whose hint says a new key is needed. */
  function replay(outcome: StoredOutcome): ExecuteResponse {
    if (outcome.ok) return outcome.response;
    throw outcome.error;
  }

  /** Runs a request whose key is (or is being) claimed and stores how it ended as the key's answer. */
  async function answerForKey(
    ref: IdempotencyKeyRef,
    runIt: () => Promise<ExecuteResponse>,
    progress: AttemptProgress,
  ): Promise<ExecuteResponse> {
    let outcome: StoredOutcome;
    try {
      outcome = { ok: true, response: await runIt() };
    } catch (err) {
      if (err instanceof KeyClaimAnswered) throw err; // the key was not claimed: nothing of this run is its answer
      const error = err instanceof AppError ? err : internalError();
      if (!isFinalAnswer(error)) {
        // Not this key's answer: its charge is still being settled, or another run of it owns the key.
        throw error.code === "EXECUTION_FENCED" ? idempotencyInProgress(ref.key, ref.executionId, undefined) : error;
      }
      // Whatever a request whose key was claimed ended with is its stored result, a planning refusal too.
      // A replay adds that trying again takes a new key (decodeOutcome), so hints here stay as the first answer's.
      // (An error from before a combined claim and hold was made finds no execution to store on: nothing is stored.)
      await guard.finish(ref, { ok: false, error });
      throw err;
    }
    // A success was answered only once JetStream acknowledged its capture, which carries this very
    // answer: the ledger records it for the key with the charge (the first completion wins), so a
    // second write would cost it a transaction per execute for nothing. Only a capture that carried it
    // without its data (too large) leaves the whole answer to this call, stored off the answer's path;
    // a retry meanwhile waits for whichever lands first. (An error is stored before it is answered: it
    // may ride on no settlement.)
    if (progress.answerCaptured) return outcome.response;
    const stored = guard.finish(ref, outcome).finally(() => storing.delete(stored));
    storing.add(stored);
    return outcome.response;
  }

  async function drain(): Promise<void> {
    while (storing.size > 0) await Promise.all(storing);
  }

  return { execute, quote, drain };
}
