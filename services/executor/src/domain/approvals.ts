// Approvals issued on our side: a capability that acts in the caller's name in public (a broadcast
// post) runs only what a person approved, and the approval is a record we keep, not a value anyone can
// compute. The issuing call (broadcast.message.quote) gets a new random id and an expiry, recorded for
// this caller and what it approves (ApprovalRule.subject) once it is planned, before its vendor is called; the adapter
// hands them back in its answer. A requiring call (broadcast.message.send) is refused before anything is
// held or any vendor is called unless its id is one we issued to this caller (else 404, worded the same
// for another user's), for this very subject, unexpired and unused; it is marked used by a
// revision-checked write as the last step of planning, so two calls racing with one approval run once,
// and made unused again when its call then held nothing (a refused hold: no vendor was called).
import { AppError, failedPrecondition, randomBase62, unavailable } from "@agentic/platform/core";
import { invalidInput } from "./errors";
import type { ExecuteCommand, GiveApprovalBack } from "./execution";
import type { ApprovalRecord, ExecutorDeps } from "./ports";
import { ProviderError, type ApprovalRule } from "./provider-port";

/** What approvals mean for one planned call: the input to plan with, and the step run once planning is done (issue or use). */
export interface ApprovalStep {
  input: Record<string, unknown>;
  /**
   * Records the approval (issuing calls), or marks it used (requiring calls; throws its refusal when another
   * call used it first) and resolves how to give it back; absent for a call that does neither.
   */
  use?(): Promise<GiveApprovalBack | undefined>;
}

/** Ids as we issue them: a prefix and 22 base62 characters; anything else was never issued. */
const APPROVAL_ID = /^[a-z]{1,8}_[0-9A-Za-z]{22}$/;

/** A call that neither issues nor requires an approval: nothing to do once planned. */
const noStep = (input: Record<string, unknown>): ApprovalStep => ({ input });

/** Issues the approval `capabilityKey` issues, or checks the one it requires; a capability with neither passes through. */
export async function approvalStep(
  deps: Pick<ExecutorDeps, "providers" | "approvals">,
  cmd: ExecuteCommand,
  capabilityKey: string,
  input: Record<string, unknown>,
  contractPath: string,
  now: () => Date = () => new Date(),
): Promise<ApprovalStep> {
  const found = deps.providers.approvalOf(capabilityKey);
  if (!found) return noStep(input);
  const rule = withInputRefusals(found, contractPath);
  const store = deps.approvals;
  if (!store)
    throw unavailable(
      "UNAVAILABLE",
      `${capabilityKey} needs approvals, which this deployment does not keep. Nothing was charged.`,
      "Retry later.",
    );
  if (rule.issuedBy === capabilityKey) {
    const issuedAt = now();
    const record: ApprovalRecord = {
      approvalId: `${rule.idPrefix}_${randomBase62(22)}`,
      userId: cmd.userId,
      requiredBy: rule.requiredBy,
      subject: rule.subject(input),
      issuedAt,
      expiresAt: new Date(issuedAt.getTime() + rule.ttlMs),
    };
    // Recorded by the step, once planning is done: a price quote, or a call planning refuses, issues nothing.
    return {
      input: { ...input, [rule.field]: record.approvalId, [rule.expiresField]: record.expiresAt.toISOString() },
      async use() {
        await storeCall(() => store.issue(record));
        return undefined;
      },
    };
  }
  const approvalId = input[rule.field];
  if (typeof approvalId !== "string")
    throw invalidInput(rule.field, `required: the id ${rule.issuedBy} issued for what a person approved`, contractPath);
  const stored = APPROVAL_ID.test(approvalId) ? await storeCall(() => store.get(approvalId)) : undefined;
  // Another user's approval reads exactly as one never issued.
  if (!stored || stored.record.userId !== cmd.userId || stored.record.requiredBy !== capabilityKey)
    throw approvalNotFound(rule, approvalId);
  const { record, revision } = stored;
  if (record.usedAt) throw approvalAlreadyUsed(rule, approvalId);
  if (record.expiresAt.getTime() <= now().getTime()) throw approvalExpired(rule, approvalId);
  if (record.subject !== rule.subject(input)) throw approvalMismatch(rule, approvalId);
  return {
    input,
    async use() {
      const usedAt = await storeCall(() => store.markUsed(record, revision, now()));
      if (usedAt === undefined) throw approvalAlreadyUsed(rule, approvalId);
      return async () => {
        await storeCall(() => store.markUnused(record, usedAt));
      };
    },
  };
}

/** The rule with its subject's input refusals (a channel the adapter does not know) as 400s naming the field. */
function withInputRefusals(rule: ApprovalRule, contractPath: string): ApprovalRule {
  return {
    ...rule,
    subject(input) {
      try {
        return rule.subject(input);
      } catch (err) {
        if (err instanceof ProviderError && err.kind === "invalid_input")
          throw invalidInput(err.field ?? rule.field, err.message, contractPath);
        throw err;
      }
    },
  };
}

/** A store that cannot answer refuses the call (nothing was held), never lets it through. */
async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw unavailable("UNAVAILABLE", "Approvals could not be read or written; nothing was charged.", "Retry shortly.");
  }
}

function again(rule: ApprovalRule): string[] {
  return [
    `Quote it again with ${rule.issuedBy}, have a person approve what it quotes, then send its ${rule.field} with exactly the quoted input`,
  ];
}

function approvalNotFound(rule: ApprovalRule, approvalId: string): AppError {
  return new AppError(
    "not_found",
    "APPROVAL_NOT_FOUND",
    `${rule.field}: this account has no approval "${approvalId}". Nothing was charged.`,
    `Send the ${rule.field} that ${rule.issuedBy} answered you.`,
    { field: rule.field, nextActions: again(rule) },
  );
}

function approvalAlreadyUsed(rule: ApprovalRule, approvalId: string): AppError {
  return failedPrecondition(
    "APPROVAL_ALREADY_USED",
    `${rule.field}: approval ${approvalId} was already used. Nothing was charged.`,
    `An approval runs once: quote again with ${rule.issuedBy}; send an Idempotency-Key to retry a call safely.`,
    { field: rule.field, nextActions: again(rule) },
  );
}

function approvalExpired(rule: ApprovalRule, approvalId: string): AppError {
  return failedPrecondition(
    "APPROVAL_EXPIRED",
    `${rule.field}: approval ${approvalId} has expired. Nothing was charged.`,
    `Quote again with ${rule.issuedBy} and send within ${Math.round(rule.ttlMs / 60_000)} minutes.`,
    { field: rule.field, nextActions: again(rule) },
  );
}

function approvalMismatch(rule: ApprovalRule, approvalId: string): AppError {
  return failedPrecondition(
    "APPROVAL_MISMATCH",
    `${rule.field}: approval ${approvalId} approved another input. Nothing was charged.`,
    `Send exactly what ${rule.issuedBy} quoted (the same channels and text), or quote this input.`,
    { field: rule.field, nextActions: again(rule) },
  );
}
