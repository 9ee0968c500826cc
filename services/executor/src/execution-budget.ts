// Caps each Execute call's budget at EXECUTION_BUDGET_MS from its arrival, whatever deadline the caller
// set (or none): no attempt starts or runs past it, so how long a stop and the gateway must wait for
// one execution is known (config.ts derives both from it).
import type { UnaryHandler } from "@agentic/platform";

export function withinExecutionBudget<Req, Res>(handler: UnaryHandler<Req, Res>, budgetMs: number): UnaryHandler<Req, Res> {
  return (req, ctx) => {
    const endsAt = Date.now() + budgetMs;
    return handler(req, { ...ctx, remainingMs: () => Math.min(ctx.remainingMs(), endsAt - Date.now()) });
  };
}
