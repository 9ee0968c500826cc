// The ledger's domain errors: a kind (which the RPC layer turns into a gRPC status), a stable
// UPPER_SNAKE code clients already know, a public message and hint, and optional public details.
import { AppError, type ErrorKind } from "@agentic/platform/core";
import type { SpendRefusal } from "./spend-policy";

export type LedgerErrorKind = Extract<
  ErrorKind,
  "invalid_argument" | "unauthenticated" | "not_found" | "already_exists" | "failed_precondition" | "resource_exhausted"
>;

/** An AppError the ledger raises; the gRPC seam turns its kind into a status. */
export class LedgerError extends AppError {
  constructor(kind: LedgerErrorKind, code: string, message: string, hint: string, details?: Record<string, unknown>) {
    super(kind, code, message, hint, details);
    this.name = "LedgerError";
  }
}

/** A request field is missing or out of range (INVALID_ARGUMENT, code INVALID_ARGUMENT, details.field). */
export const invalidField = (field: string, message: string, hint: string) =>
  new LedgerError("invalid_argument", "INVALID_ARGUMENT", message, hint, { field });

/** The presented API key is malformed, unknown or revoked; the three are indistinguishable on purpose. */
export const invalidApiKey = () =>
  new LedgerError(
    "unauthenticated",
    "INVALID_API_KEY",
    "The API key is invalid or has been revoked.",
    "Send `Authorization: Bearer aak_...` with an active key; create one with `npm run keys -- create --user <id>`.",
  );

/** The available balance does not cover a hold. */
export const creditsRequired = (requiredCredits: number, balanceCredits: number) =>
  new LedgerError(
    "failed_precondition",
    "CREDITS_REQUIRED",
    `This call needs ${requiredCredits} credits; the wallet has ${balanceCredits} available.`,
    "Add credits to the wallet (POST /dev/init outside production), or choose a cheaper route.",
    { requiredCredits, balanceCredits },
  );

export const holdIdConflict = (holdId: string) =>
  new LedgerError(
    "already_exists",
    "HOLD_ID_CONFLICT",
    `Hold ${holdId} already exists for another user or amount.`,
    "Use a new hold_id for each execution attempt; repeat an id only to retry the very same hold.",
  );

export const grantIdConflict = (grantId: string) =>
  new LedgerError(
    "already_exists",
    "GRANT_ID_CONFLICT",
    `Grant ${grantId} already exists for another user or amount.`,
    "Use a new grant_id for each grant; repeat an id only to retry the very same grant.",
  );

/** A credit movement's reference was recorded before with another user, kind or amount: nothing moved. */
export const creditReferenceConflict = (reference: string) =>
  new LedgerError(
    "already_exists",
    "CREDIT_REFERENCE_CONFLICT",
    `Reference ${reference} was already recorded for another user, kind or amount.`,
    "Use a new reference for each grant, refund or adjustment; repeat one only to retry the very same movement.",
    { reference },
  );

/** A negative movement larger than the available balance: nothing moved (a balance never goes below zero). */
export const balanceTooLow = (amountCredits: number, balanceCredits: number) =>
  new LedgerError(
    "failed_precondition",
    "BALANCE_TOO_LOW",
    `Removing ${-amountCredits} credits would take the wallet below zero; it has ${balanceCredits} available.`,
    "Remove at most the available balance (credits held by running executions are not available).",
    { amountCredits, balanceCredits },
  );

export const holdNotFound = (holdId: string) =>
  new LedgerError("not_found", "HOLD_NOT_FOUND", `No hold ${holdId}.`, "Check the hold_id returned by HoldCredits.");

export const apiKeyNotFound = (keyId: string) =>
  new LedgerError(
    "not_found",
    "API_KEY_NOT_FOUND",
    `No API key ${keyId}.`,
    "List keys with `npm run keys -- list` to find the key id (key_...).",
  );

export const idempotencyKeyNotFound = () =>
  new LedgerError(
    "not_found",
    "IDEMPOTENCY_KEY_NOT_FOUND",
    "The idempotency key was never claimed, or its record expired.",
    "Call ClaimIdempotencyKey first and complete only a key you claimed.",
  );

/** An attempt of an execution that may not start (its key was taken over, or it has ended): nothing was held. */
export const executionFenced = (executionId: string, reason: string) =>
  new LedgerError(
    "failed_precondition",
    "EXECUTION_FENCED",
    `Execution ${executionId} may not start an attempt: ${reason}.`,
    "Nothing was held. The request's Idempotency-Key now belongs to another run of it; retry with the same key to get that run's answer.",
    { executionId },
  );

/** No execution of this user with this id; another user's execution is not confirmed to exist. */
export const executionNotFound = (executionId: string) =>
  new LedgerError(
    "not_found",
    "EXECUTION_NOT_FOUND",
    `No execution ${executionId}.`,
    "Use the executionId an execute answered with; executions are kept 24 hours.",
  );

/** No resource of this kind and id belongs to the user; another user's resource is not confirmed to exist. */
export const resourceNotFound = (kind: string, resourceId: string) =>
  new LedgerError(
    "not_found",
    "RESOURCE_NOT_FOUND",
    `No ${kind} ${resourceId} belongs to this user.`,
    "Use a resource this user created (its id is in the answer of the execution that created it).",
  );

/** What a refused limit reads as: "the daily budget of key key_1 (agent alpha)". */
function limitName(r: SpendRefusal): string {
  const agent = r.agentName !== undefined ? ` (agent ${r.agentName})` : r.otherAgents ? " (agents without a policy of their own)" : "";
  const owner = `key ${r.keyId}${agent}`;
  if (r.limit === "max_price") return `the maximum price per execution of ${owner}`;
  if (r.limit === "budget") return `the budget of ${owner}`;
  return `the ${r.limit === "capability_count" ? "execution count" : "credit"} cap on ${r.capabilityKey ?? ""} of ${owner}`;
}

/** A spend policy refused a hold (nothing was held): the limit, what remains and when it resets. */
export function spendRefused(r: SpendRefusal): LedgerError {
  const unit = r.limit === "capability_count" ? "executions" : "credits";
  const resets = r.resetsAt ? `it resets at ${r.resetsAt.toISOString()}` : r.limit === "max_price" ? "" : "it does not reset";
  const message =
    r.code === "PRICE_ABOVE_MAX"
      ? `This call costs ${r.requested} credits, above ${limitName(r)}: ${r.limitValue} credits.`
      : `This call (${r.requested} credits) exceeds ${limitName(r)}: ${r.limitValue} ${unit}, ${r.remaining} ${unit} left${resets ? `; ${resets}` : ""}.`;
  // The hint alone says which limit, what is left and when it resets, and what to do.
  const limit = limitName(r).replace(/^t/, "T");
  const when = r.resetsAt ? `until ${r.resetsAt.toISOString()}, when it resets` : "and does not reset (a one-off allowance)";
  const hint =
    r.code === "PRICE_ABOVE_MAX"
      ? `${limit} is ${r.limitValue} credits and this call costs ${r.requested}: choose a cheaper route (routeKey or provider), or ask the key's owner to raise --max-price (npm run keys -- policy).`
      : `${limit} has ${r.remaining} of ${r.limitValue} ${unit} left ${when}: ${r.resetsAt ? "wait until then, " : ""}choose a cheaper route, or ask the key's owner to raise the limit (npm run keys -- policy).`;
  return new LedgerError("failed_precondition", r.code, message, hint, {
    keyId: r.keyId,
    ...(r.agentName !== undefined ? { agentName: r.agentName } : {}),
    ...(r.otherAgents ? { otherAgents: true } : {}),
    limit: r.limit,
    ...(r.capabilityKey !== undefined ? { capabilityKey: r.capabilityKey } : {}),
    limitValue: r.limitValue,
    remaining: r.remaining,
    requestedCredits: r.requested,
    ...(r.resetsAt ? { resetsAt: r.resetsAt.toISOString() } : {}),
  });
}

/** The key has as many open quotes as it may (each reserves credits): nothing was reserved (429 at the edge). */
export const tooManyOpenQuotes = (keyId: string, limit: number) =>
  new LedgerError(
    "resource_exhausted",
    "TOO_MANY_OPEN_QUOTES",
    `Key ${keyId} has ${limit} open quotes, the most one key may have; each reserves its credits until it is executed or expires.`,
    "Execute or let expire an open quote (POST .../execute with its quoteId) before asking for another, or execute without a quote.",
    // When to ask again: an open quote lives minutes (QUOTE_TTL_MS), so one is drawn or expires soon.
    { keyId, limit, retryAfterSeconds: 60 },
  );

/**
 * The user has had its day's allowance of attempts that made a vendor work on our key and charged
 * nothing (timeouts, answers too large to read): new calls are refused until the next UTC day (429).
 */
export function unchargedFailuresLimited(count: number, limit: number, now: Date): LedgerError {
  const resetsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return new LedgerError(
    "resource_exhausted",
    "UNCHARGED_FAILURES_LIMITED",
    `Today ${count} calls of this account ended without a charge after the provider may have done paid work (timeouts, answers too large to read); ${limit} a day are allowed.`,
    `New calls are refused until ${resetsAt.toISOString()} (the next UTC day). Ask for work a provider can finish in time (smaller pages, lower limits, a shorter wait) so calls succeed.`,
    { count, limit, resetsAt: resetsAt.toISOString(), retryAfterSeconds: Math.ceil((resetsAt.getTime() - now.getTime()) / 1000) },
  );
}

export const quoteNotFound = (quoteId: string) =>
  new LedgerError(
    "not_found",
    "QUOTE_NOT_FOUND",
    `No quote ${quoteId} for this caller.`,
    "Ask for a new quote, then execute with its quoteId.",
    {
      quoteId,
    },
  );

export const quoteExpired = (quoteId: string) =>
  new LedgerError(
    "failed_precondition",
    "QUOTE_EXPIRED",
    `Quote ${quoteId} has expired; its credits were given back.`,
    "Ask for a new quote, or execute without a quoteId.",
    { quoteId },
  );

export const quoteAlreadyUsed = (quoteId: string) =>
  new LedgerError(
    "already_exists",
    "QUOTE_ALREADY_USED",
    `Quote ${quoteId} was already executed.`,
    "A quote pays for one execution; ask for a new one.",
    {
      quoteId,
    },
  );

export const quoteAmountMismatch = (quoteId: string, requestedCredits: number) =>
  new LedgerError(
    "failed_precondition",
    "QUOTE_AMOUNT_MISMATCH",
    `Quote ${quoteId} reserved another amount than the ${requestedCredits} credits asked for.`,
    "Hold exactly the quoted amount.",
    { quoteId, requestedCredits },
  );

export const quoteIdConflict = (quoteId: string) =>
  new LedgerError(
    "already_exists",
    "QUOTE_ID_CONFLICT",
    `quote_id ${quoteId} is already used with another user or amount.`,
    "Use a fresh quote_id per quote.",
    { quoteId },
  );
