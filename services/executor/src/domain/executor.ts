// Execute, orchestrated: claim the Idempotency-Key (a completed key answers its stored result, whatever
// the catalog says now), plan the execution (validate, pick routes, build requests), run the attempts (hold, provider call over the route's rail, capture or release),
// and store the outcome for the key (a success off the answer's path: its capture carries it too).
// A quote plans the same way and reserves the first route's price instead of running it.
// Rails never know the capability; providers never know the rail: the planner pairs them per route.
import { AppError, internalError, newId } from "@agentic/platform/core";
import type { ExecuteResponse, QuoteResponse } from "@agentic/proto/executor/v1";
import { idempotencyInProgress } from "./errors";
import type { CallBudget, ExecuteCommand, StoredOutcome } from "./execution";
import { IdempotencyGuard } from "./idempotency";
import { createPlanner } from "./plan-execution";
import type { ExecutorDeps } from "./ports";
import { createQuoter } from "./quote-execution";
import { requestHash } from "./request-hash";
import { createAttemptRunner } from "./run-attempts";

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

  /** Plans the execution, uses the approval it carries (once nothing else refused it), and runs its attempts. */
  async function run(cmd: ExecuteCommand, executionId: string, budget: CallBudget): Promise<ExecuteResponse> {
    const execution = await plan(cmd, executionId, budget);
    await execution.useApproval?.();
    return attempts(execution, budget);
  }

  async function execute(cmd: ExecuteCommand, budget: CallBudget): Promise<ExecuteResponse> {
    const executionId = cmd.executionId ?? newId("execution");
    if (!cmd.idempotencyKey) return run(cmd, executionId, budget);

    const ref = {
      userId: cmd.userId,
      key: cmd.idempotencyKey,
      requestHash: requestHash(cmd.domainKey, cmd.capabilityId, cmd.body),
      executionId,
      capabilityKey: capabilityKeyOf(cmd),
    };
    // Claimed before anything is planned: a replay answers what the key answered, even after the
    // capability was gated or its contract changed; only a new key is planned against today's catalog.
    const begun = await guard.begin(ref, () => budget.remainingMs());
    if (begun.kind === "replay") {
      // As decoded for a replay: a success marked `replayed`, an error whose hint says a new key is needed.
      if (begun.outcome.ok) return begun.outcome.response;
      throw begun.outcome.error;
    }
    let outcome: StoredOutcome;
    try {
      outcome = { ok: true, response: await run(cmd, executionId, budget) };
    } catch (err) {
      const error = err instanceof AppError ? err : internalError();
      if (!isFinalAnswer(error)) {
        // Not this key's answer: its charge is still being settled, or another run of it owns the key.
        throw error.code === "EXECUTION_FENCED" ? idempotencyInProgress(ref.key, executionId, undefined) : error;
      }
      // Whatever a request whose key was claimed ended with is its stored result, a planning refusal too.
      // A replay adds that trying again takes a new key (decodeOutcome), so hints here stay as the first answer's.
      await guard.finish(ref, { ok: false, error });
      throw err;
    }
    // A success was answered only once JetStream acknowledged its capture, which carries this very
    // answer: the ledger records it for the key with the charge even if this call never lands (a
    // crash, the ledger away). So it is stored off the answer's path; a retry meanwhile waits for
    // whichever lands first. (An error is stored before it is answered: it may ride on no settlement.)
    const stored = guard.finish(ref, outcome).finally(() => storing.delete(stored));
    storing.add(stored);
    return outcome.response;
  }

  async function drain(): Promise<void> {
    while (storing.size > 0) await Promise.all(storing);
  }

  return { execute, quote, drain };
}
