// Asks the facilitator again about top-ups left pending (a settle whose answer was lost), so a payment
// is credited even when its payer never presents it again. Runs on every replica; each attempt is
// taken in one conditional store step, so replicas never ask about one payment at the same time.
import type { Logger } from "@agentic/platform";
import type { TopUps } from "../domain/top-ups";

export interface TopUpReconciler {
  stop(): Promise<void>;
}

export function startTopUpReconciler(deps: { topUps: TopUps; intervalMs: number; logger: Logger; batchSize?: number }): TopUpReconciler {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(() => deps.topUps.reconcilePending(deps.batchSize ?? 50))
      .catch((err: unknown) => deps.logger.error({ err }, "top-up reconciliation pass failed"));
  }, deps.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
