// ClaimIdempotencyKeyAndHoldCredits, decided once for every store: the claim's rule (decideClaim) and
// then, only when this call claimed the key, the hold's rule (decideHold) on the execution the claim
// creates, in one atomic step. The claim stands whatever the hold decides (the caller stores a refused
// hold as the key's answer), so the outcome is the one a ClaimIdempotencyKey followed by a HoldCredits
// would have, without the round trip between them.
import { decideHold, type HoldFacts } from "./decide-hold";
import { noEffects, type Decision } from "./effects";
import type { ClaimHoldCommand, ClaimHoldResult } from "./ports";

export type { ClaimHoldCommand, ClaimHoldResult } from "./ports";
import { decideClaim, newClaimedExecution } from "./rules";
import type { ExecutionRecord } from "./types";

export interface ClaimHoldDecision extends Decision<ClaimHoldResult> {
  /**
   * The key's stored execution the claim replaces (a claim whose lease ran out with nothing held, or a
   * record past its retention): the store removes it, still as read, before writing the effects.
   */
  replaces: { record: ExecutionRecord; action: "create" | "take_over" } | null;
}

/**
 * The decision when the key's stored execution answers the claim (done, running elsewhere, another
 * body): no hold is tried, so a store reads the hold's facts only when this is undefined. Every retry
 * of a key comes here first.
 */
export function claimAnswered(cmd: ClaimHoldCommand, keyExecution: ExecutionRecord | null): ClaimHoldDecision | undefined {
  const claim = decideClaim(keyExecution, cmd.claim);
  return claim.action === "answer" ? answeredBy(claim.outcome) : undefined;
}

const answeredBy = (outcome: ClaimHoldResult["claim"]): ClaimHoldDecision => ({
  result: { claim: outcome },
  effects: noEffects(),
  replaces: null,
});

/** `holdFacts`: the hold's facts but its execution, which is the one this claim creates. */
export function decideClaimHold(
  cmd: ClaimHoldCommand,
  keyExecution: ExecutionRecord | null,
  holdFacts: Omit<HoldFacts, "execution">,
  newEntryId: () => string,
): ClaimHoldDecision {
  const claim = decideClaim(keyExecution, cmd.claim);
  if (claim.action === "answer") return answeredBy(claim.outcome);
  const claimed = newClaimedExecution(cmd.claim);
  const hold = decideHold(cmd.hold, { ...holdFacts, execution: claimed }, newEntryId);
  // The new execution is written once: as the hold leaves it (running, naming its hold), or as claimed when the hold is refused.
  const effects = hold.effects;
  effects.executions =
    effects.executions.length > 0
      ? effects.executions.map(({ record }) => ({ record, previous: null }))
      : [{ record: claimed, previous: null }];
  return {
    result: { claim: { state: "claimed", executionId: claimed.executionId }, hold: hold.result },
    effects,
    replaces: keyExecution ? { record: keyExecution, action: claim.action } : null,
  };
}
