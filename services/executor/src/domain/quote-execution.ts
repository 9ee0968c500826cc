// A quote: the route execute would run for this body (the same planner), priced as execute would hold
// it (pricing.quote), with that price reserved in the ledger until the quote expires. An execute that
// sends the quote's id runs on that route at that price (plan-execution checks the body against the
// quote's fingerprint; the hold draws the reserved credits).
import { invalidArgument, newId } from "@agentic/platform/core";
import type { QuoteResponse } from "@agentic/proto/executor/v1";
import { dependencyOpts } from "./deadline";
import { asAppError } from "./errors";
import type { CallBudget, ExecuteCommand, Execution } from "./execution";
import type { ExecutorDeps } from "./ports";
import { notTried, routeDecision } from "./route-decision";

export type Planner = (cmd: ExecuteCommand, executionId: string, budget: CallBudget) => Promise<Execution>;

/** The quoter: `quote(cmd, budget)` reserves the price of the route execute would run, or throws the planner's refusal. */
export function createQuoter(deps: ExecutorDeps, plan: Planner) {
  return async function quoteExecution(cmd: ExecuteCommand, budget: CallBudget): Promise<QuoteResponse> {
    if (hasQuoteId(cmd.body))
      throw invalidArgument(
        "INVALID_INPUT",
        "quoteId: a quote is asked for with the execute body, without a quoteId",
        "Remove quoteId from the body to quote it; send quoteId to execute.",
        { field: "quoteId" },
      );
    const quoteId = newId("quote");
    const execution = await plan(cmd, quoteId, budget);
    // The route execute would run first; a quote binds it alone, at its price.
    const [chosen, ...others] = execution.prepared;
    const { route, quote } = chosen!;
    const reserved = await deps.ledger
      .createQuoteHold(
        {
          quoteId,
          userId: cmd.userId,
          keyId: cmd.keyId ?? "",
          ...(cmd.agentName ? { agentName: cmd.agentName } : {}),
          capabilityKey: execution.capabilityKey,
          routeKey: route.routeKey,
          amountCredits: quote.holdCredits,
          requestHash: execution.planHash,
          ttlMs: deps.settings.quoteTtlMs,
        },
        dependencyOpts(deps.settings, budget),
      )
      .catch((err: unknown) => {
        throw asAppError(err);
      });
    return {
      quoteId,
      routeKey: route.routeKey,
      provider: route.providerKey,
      priceCredits: quote.holdCredits,
      ...(reserved.expiresAt ? { expiresAt: reserved.expiresAt } : {}),
      balanceAfterCredits: reserved.balanceAfterCredits,
      // The quote counts against no spend policy; the ledger says what one would refuse when the execute holds.
      blockingRequirements: reserved.blockingRequirements,
      nextActions: reserved.nextActions,
      decision: routeDecision(
        route.routeKey,
        [],
        [
          ...execution.notTried,
          ...others.map((p) => notTried(p.route, "not_reached", "a quote binds one route: it runs without fallback")),
        ],
      ),
    };
  };
}

/** Whether the body names a quoteId, at the top or inside an {"input": {...}} wrapper. */
function hasQuoteId(body: Readonly<Record<string, unknown>>): boolean {
  const inner = body.input;
  return body.quoteId != null || (typeof inner === "object" && inner !== null && (inner as Record<string, unknown>).quoteId != null);
}
