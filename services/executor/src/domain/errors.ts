// The executor's public errors: a kind, a stable UPPER_SNAKE code and a hint that says what to do
// next. Every one of them means nothing was charged, unless its message says otherwise.
import { AppError, failedPrecondition, internalError, invalidArgument, unavailable } from "@agentic/platform/core";

/** The body breaks the capability's execute contract; `field` is the JSON path of the offending value. */
export function invalidInput(field: string, problem: string, contractPath: string): AppError {
  return invalidArgument("INVALID_INPUT", `${field}: ${problem}`, `Fix '${field}'; the exact fields are in GET ${contractPath}.`, {
    field,
  });
}

/** The input names a model the routes it may take do not serve; `served` are the models they do serve. */
export function modelNotServed(
  problem: string,
  served: readonly string[],
  capability: { domainKey: string; capabilityId: string },
): AppError {
  const routes = `GET /domains/${capability.domainKey}/capabilities/${capability.capabilityId}/routes`;
  return invalidArgument(
    "INVALID_INPUT",
    `model: ${problem}; served: ${served.join(", ")}. Nothing was charged.`,
    `Set 'model' to one of: ${served.join(", ")} (${routes} lists each route's models and prices).`,
    { field: "model", servedModels: [...served] },
  );
}

/**
 * The input names a resource the caller does not own. Worded the same whether it belongs to someone
 * else or does not exist, so it never confirms another account's resource.
 */
export function resourceNotFound(field: string, kind: string, resourceId: string): AppError {
  return new AppError(
    "not_found",
    "RESOURCE_NOT_FOUND",
    `${field}: this account has no ${kind} "${resourceId}". Nothing was charged.`,
    `Set '${field}' to the id of a ${kind} this account created, as its execute answered it.`,
    {
      field,
    },
  );
}

export function unknownProvider(provider: string, capabilityKey: string, providers: readonly string[]): AppError {
  return invalidArgument(
    "UNKNOWN_PROVIDER",
    `provider: ${capabilityKey} has no route of provider "${provider}"`,
    `Set 'provider' to one of: ${providers.join(", ")}; or omit it to let the router choose.`,
    {
      field: "provider",
    },
  );
}

export function unknownRoute(routeKey: string, capabilityKey: string, routeKeys: readonly string[]): AppError {
  return invalidArgument(
    "UNKNOWN_ROUTE",
    `routeKey: "${routeKey}" is not a route of ${capabilityKey}`,
    `Set 'routeKey' to one of: ${routeKeys.join(", ")}; or omit it to let the router choose.`,
    {
      field: "routeKey",
    },
  );
}

/** The capability or the pinned route may not be executed now; `blocking` lists why. */
export function capabilityGated(message: string, blocking: readonly string[], hint: string): AppError {
  return failedPrecondition("CAPABILITY_GATED", message, hint, { blockingRequirements: [...blocking] });
}

/** A live route this executor cannot run (rail or adapter not configured, or every route's breaker open). */
export function routeUnavailable(message: string, hint: string): AppError {
  return unavailable("ROUTE_UNAVAILABLE", message, hint);
}

/**
 * The hold was refused; `metered`: the amount is the most this request can cost, not a fixed price, on a
 * per-token route (`tokens`) or a route metered by what its vendor returns, up to the cap it is sent (`units`).
 */
export function creditsRequired(
  routeKey: string,
  priceCredits: number,
  balanceCredits: number | undefined,
  metered: boolean | "tokens" | "units" = false,
): AppError {
  const balance = balanceCredits === undefined ? "" : `; the wallet has ${balanceCredits} available`;
  const hint =
    metered === "units"
      ? "Add credits: the hold covers the most the vendor may bill for what it returns (up to the cap it is sent), and what it does not bill is returned."
      : metered
        ? "Add credits, or lower max_tokens or the input: the hold is the most this request can cost, and what the vendor does not bill is returned."
        : "Add credits to the wallet (POST /dev/init outside production), or choose a cheaper route.";
  const cost = metered
    ? `This request can cost up to ${priceCredits} credits on route ${routeKey}, held until the vendor reports its usage`
    : `Route ${routeKey} costs ${priceCredits} credits`;
  return failedPrecondition("CREDITS_REQUIRED", `${cost}${balance}. Nothing was charged.`, hint, {
    routeKey,
    requiredCredits: priceCredits,
    ...(balanceCredits === undefined ? {} : { balanceCredits }),
  });
}

export function idempotencyConflict(key: string): AppError {
  return failedPrecondition(
    "IDEMPOTENCY_CONFLICT",
    `Idempotency-Key '${key}' was already used with a different request.`,
    "Use a new Idempotency-Key for a different request body or capability.",
  );
}

/** Seconds a client should wait before asking again about an execution still running. */
const IN_PROGRESS_RETRY_AFTER_S = 2;
/** Seconds between polls of an indeterminate execution: its outcome comes from reconciliation, not from a prompt answer. */
const INDETERMINATE_RETRY_AFTER_S = 30;

/** The key's execution is still running; `retryAfterSeconds` and `executionId` reach the client (Retry-After, body). */
export function idempotencyInProgress(key: string, executionId: string, leaseExpiresAt: Date | undefined): AppError {
  const after = leaseExpiresAt ? ` (its lease runs until ${leaseExpiresAt.toISOString()})` : "";
  return failedPrecondition(
    "IDEMPOTENCY_IN_PROGRESS",
    `A request with Idempotency-Key '${key}' is still running as execution ${executionId}${after}.`,
    `Retry with the same Idempotency-Key to receive its result, or read GET /executions/${executionId}.`,
    { executionId, retryAfterSeconds: IN_PROGRESS_RETRY_AFTER_S },
  );
}

/**
 * The key's execution may have reached its provider and its outcome is not known yet (its executor
 * went away mid-call, or its result has not reached the ledger): it is never run again; its hold stays
 * until the outcome is reconciled.
 */
export function executionIndeterminate(key: string, executionId: string): AppError {
  return failedPrecondition(
    "EXECUTION_INDETERMINATE",
    `Execution ${executionId} (Idempotency-Key '${key}') may have reached its provider and its outcome is not known yet. It will not be run again.`,
    `Retry later with the same Idempotency-Key, or read GET /executions/${executionId}: it ends as succeeded (charged), failed or outcome_unknown (not charged).`,
    { executionId, state: "indeterminate", retryAfterSeconds: INDETERMINATE_RETRY_AFTER_S },
  );
}

/** Every route tried failed (or the one allowed did); nothing was charged. */
export function providerError(message: string, hint: string, details: Record<string, unknown>): AppError {
  return new AppError("unavailable", "PROVIDER_ERROR", message, hint, details);
}

export function providerTimeout(message: string, hint: string, details: Record<string, unknown>): AppError {
  return new AppError("deadline_exceeded", "PROVIDER_TIMEOUT", message, hint, details);
}

/**
 * One request more would pass the vendor quota of `routeKey`: the caller's share of it this window
 * (`user`) or the quota every user shares (`route`). Retry-After: when the window resets.
 */
export function vendorQuotaExhausted(routeKey: string, scope: "user" | "route", resetAtMs: number, nowMs: number): AppError {
  const resetAt = new Date(resetAtMs).toISOString();
  return new AppError(
    "resource_exhausted",
    "VENDOR_QUOTA_EXHAUSTED",
    scope === "user"
      ? `You have used your share of the vendor quota of ${routeKey} until ${resetAt} (the vendor's plan is shared by every user). Nothing was charged.`
      : `The vendor quota of ${routeKey} is used up until ${resetAt}. Nothing was charged.`,
    `Retry after the Retry-After seconds, or execute another route of the capability (call recommend to compare them; allowFallback: true lets the router pick one).`,
    { routeKey, retryAfterSeconds: Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)) },
  );
}

/** The provider refused the caller's input (a 4xx the vendor blames on the request); nothing was charged. */
export function providerRejectedInput(message: string, hint: string, details: Record<string, unknown>): AppError {
  return invalidArgument("PROVIDER_REJECTED_INPUT", message, hint, details);
}

/** The provider performed the call but the capture could not be recorded; the hold will expire unsettled. */
export function settlementUnconfirmed(routeKey: string, priceCredits: number): AppError {
  return unavailable(
    "SETTLEMENT_UNCONFIRMED",
    `Route ${routeKey} performed the operation, but its charge of ${priceCredits} credits could not be recorded. You will most likely not be charged for it.`,
    "Check GET /usage before retrying: the operation may already have taken effect.",
  );
}

/** The caller's deadline left no time to try a provider. */
export function deadlineTooShort(): AppError {
  return new AppError(
    "deadline_exceeded",
    "PROVIDER_TIMEOUT",
    "The request deadline left no time to call a provider. Nothing was charged.",
    "Retry with a longer client timeout.",
  );
}

/** An error a port threw, as an AppError: the adapters hand over AppErrors; anything else is an unexpected failure. */
export function asAppError(err: unknown): AppError {
  return err instanceof AppError ? err : internalError();
}

/**
 * No route that may run costs at most the caller's maxPriceCredits (undefined: the one a stored recommendation was
 * made with); `cheapest` is what the cheapest of them costs.
 */
export function priceAboveMax(
  capabilityKey: string,
  maxPriceCredits: number | undefined,
  cheapest: { routeKey: string; credits: number },
): AppError {
  const max = maxPriceCredits === undefined ? "the maxPriceCredits of its recommendation" : `maxPriceCredits ${maxPriceCredits}`;
  const fix = maxPriceCredits === undefined ? "recommend again with a higher maxPriceCredits or none" : "leave it out";
  return failedPrecondition(
    "PRICE_ABOVE_MAX",
    `No route of ${capabilityKey} that can run this input costs at most ${max}: the cheapest, ${cheapest.routeKey}, costs ${cheapest.credits} credits. Nothing was charged.`,
    `PRICE_ABOVE_MAX: raise maxPriceCredits to at least ${cheapest.credits}, or ${fix}.`,
    {
      ...(maxPriceCredits === undefined ? {} : { maxPriceCredits }),
      cheapestRouteKey: cheapest.routeKey,
      cheapestCredits: cheapest.credits,
    },
  );
}

/** The quote's reservation ended unused; a new quote is needed. */
export function quoteExpired(quoteId: string): AppError {
  return failedPrecondition(
    "QUOTE_EXPIRED",
    `Quote ${quoteId} has expired; its credits are no longer reserved. Nothing was charged.`,
    "Ask for a new quote (POST .../quote) and execute with its quoteId.",
    { quoteId },
  );
}

/** The quote was already drawn by an execution. */
export function quoteAlreadyUsed(quoteId: string): AppError {
  return failedPrecondition(
    "QUOTE_ALREADY_USED",
    `Quote ${quoteId} was already used by an execution. Nothing was charged.`,
    "A quote runs once: ask for a new quote, or send an Idempotency-Key to retry an execution safely.",
    { quoteId },
  );
}

/** The execute body is not the one the quote was made for. */
export function quoteMismatch(quoteId: string, what: string): AppError {
  return failedPrecondition(
    "QUOTE_MISMATCH",
    `Quote ${quoteId} was made for ${what}. Nothing was charged.`,
    "Send exactly the body you quoted, plus quoteId; or ask for a new quote for this body.",
    { quoteId },
  );
}
