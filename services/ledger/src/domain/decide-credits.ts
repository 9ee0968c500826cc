// Money in and out by id or reference, decided once for every store: GrantCredits (once per grant
// id) and an operator's grant, refund or adjustment (once per reference, whatever its kind; a grant
// id is a reference too). A replay moves nothing; a negative amount never takes the available
// balance below zero.
import type { CreditMovementCommand, CreditMovementResult, GrantCommand, GrantResult } from "./ports";
import { decideCreditMovement, emptyWallet, isReplay, movementUsageItem } from "./rules";
import type { JournalEntry, Wallet } from "./types";
import { answer, journalEntry, noEffects, walletAfter, type Decision } from "./effects";

export interface GrantFacts {
  /** The grant entry under this grant id, if any. */
  existing: JournalEntry | null;
  wallet: Wallet | null;
}

export function decideGrant(cmd: GrantCommand, facts: GrantFacts, newEntryId: () => string): Decision<GrantResult> {
  const wallet = facts.wallet ?? emptyWallet(cmd.userId);
  if (facts.existing) {
    if (!isReplay(facts.existing, cmd)) return answer({ status: "conflict", entry: facts.existing });
    return answer({ status: "replayed", wallet, entry: facts.existing });
  }
  const effects = noEffects();
  const entry = journalEntry(
    newEntryId(),
    {
      userId: cmd.userId,
      kind: "grant",
      amountCredits: cmd.amountCredits,
      heldDeltaCredits: 0,
      referenceId: cmd.grantId,
      ...(cmd.reason ? { reason: cmd.reason } : {}),
    },
    cmd.now,
  );
  effects.moves.push(entry);
  return { result: { status: "granted", wallet: walletAfter(wallet, effects.moves), entry }, effects };
}

export interface CreditMovementFacts {
  /** The grant, refund or adjustment entry under the reference, if any. */
  existing: JournalEntry | null;
  wallet: Wallet | null;
}

export function decideMoveCredits(
  cmd: CreditMovementCommand,
  facts: CreditMovementFacts,
  newEntryId: () => string,
): Decision<CreditMovementResult> {
  const wallet = facts.wallet ?? emptyWallet(cmd.userId);
  const decision = decideCreditMovement(facts.existing, cmd, wallet.balanceCredits);
  if (decision.action === "conflict") return answer({ status: "conflict", entry: decision.entry });
  if (decision.action === "replay") return answer({ status: "replayed", wallet, entry: decision.entry });
  if (decision.action === "insufficient") return answer({ status: "insufficient", wallet });
  const effects = noEffects();
  const entry = journalEntry(
    newEntryId(),
    {
      userId: cmd.userId,
      kind: cmd.kind,
      amountCredits: cmd.amountCredits,
      heldDeltaCredits: 0,
      referenceId: cmd.reference,
      reason: cmd.reason,
      operator: cmd.operator,
      ...(cmd.operatorName ? { operatorName: cmd.operatorName } : {}),
    },
    cmd.now,
  );
  effects.moves.push(entry);
  effects.usage.push(movementUsageItem(entry, cmd));
  return { result: { status: "recorded", wallet: walletAfter(wallet, effects.moves), entry }, effects };
}
