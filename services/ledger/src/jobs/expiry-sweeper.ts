// Releases holds that were never settled once their TTL has passed (journal kind expiry). Runs on
// every replica; each hold leaves `held` in one conditional store transition, so replicas never
// release a hold twice. When holds are due and the settlement consumer still has a backlog, the
// sweep waits (at most `maxDeferMs`), so captures queued during an outage are applied before their
// holds would expire; the backlog is asked for only when some hold is due.
// Each pass then reconciles executions: those abandoned mid-call (running long past their lease, no
// hold left held) are marked outcome_unknown, and the indeterminate gauge is refreshed.
import type { Logger } from "@agentic/platform";
import type { Ledger } from "../domain/ledger";
import type { LedgerMetrics } from "../domain/ports";
import type { Hold } from "../domain/types";

export interface ExpirySweeperDeps {
  ledger: Ledger;
  logger: Logger;
  metrics: LedgerMetrics;
  intervalMs: number;
  /** Holds released per pass at most (default 200); a full pass runs the next one at once. */
  batchSize?: number;
  /** True while settlements are still queued; errors count as "no backlog" (expiry is the safety net). */
  hasBacklog?: () => Promise<boolean>;
  /** Longest time a sweep waits for the backlog to clear (default 2 minutes). */
  maxDeferMs?: number;
  onExpired?: (hold: Hold) => void;
  /** How long past its lease a running execution with no held hold waits before it is abandoned (default: the ledger's). */
  abandonGraceMs?: number;
}

export interface ExpirySweeper {
  /** Runs one pass now, without waiting for a backlog; resolves with the holds it released. */
  sweep(): Promise<Hold[]>;
  /** Stops the timer and waits for a running pass. */
  stop(): Promise<void>;
}

export function startExpirySweeper(deps: ExpirySweeperDeps): ExpirySweeper {
  const batchSize = deps.batchSize ?? 200;
  const maxDeferMs = deps.maxDeferMs ?? 120_000;
  let deferredSince: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;

  async function shouldDefer(): Promise<boolean> {
    if (!deps.hasBacklog) return false;
    const backlog = await deps.hasBacklog().catch(() => false);
    if (!backlog) {
      deferredSince = undefined;
      return false;
    }
    deferredSince ??= Date.now();
    return Date.now() - deferredSince < maxDeferMs;
  }

  async function expire(due: Hold[]): Promise<Hold[]> {
    const expired = await deps.ledger.expireHolds(due);
    deps.metrics.holdsExpired(expired.length);
    for (const hold of expired) {
      deps.logger.info({ holdId: hold.holdId, userId: hold.userId, amountCredits: hold.amountCredits }, "hold expired and released");
      deps.onExpired?.(hold);
    }
    return expired;
  }

  async function sweep(): Promise<Hold[]> {
    return expire(await deps.ledger.listDueHolds(batchSize));
  }

  /** Marks abandoned executions (never while settlements are queued: one of them may be their outcome). */
  async function reconcileExecutions(): Promise<void> {
    const backlog = async () => (deps.hasBacklog ? deps.hasBacklog().catch(() => true) : false);
    deps.metrics.executionsAbandoned((await deps.ledger.abandonExecutions(batchSize, deps.abandonGraceMs, backlog)).length);
    deps.metrics.executionsIndeterminate(await deps.ledger.countIndeterminateExecutions());
  }

  async function tick(): Promise<void> {
    let full = false;
    try {
      const due = await deps.ledger.listDueHolds(batchSize);
      if (due.length && !(await shouldDefer())) full = (await expire(due)).length === batchSize;
      await reconcileExecutions();
    } catch (err) {
      deps.logger.error({ err }, "expiry sweep failed; retrying next interval");
    }
    if (!stopped) timer = setTimeout(run, full ? 0 : deps.intervalMs);
  }

  function run(): void {
    running = tick();
  }

  timer = setTimeout(run, deps.intervalMs);
  return {
    sweep,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
