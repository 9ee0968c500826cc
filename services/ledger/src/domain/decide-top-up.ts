// Ending a pending top-up, decided once for every store: an unknown one is unknown, an ended one stays
// as it ended; a credited one adds its credits through the one mechanism for money in (a grant entry
// keyed by the top-up id) with its usage item, in the same step as the top-up's end.
import type { FinishTopUpCommand, TopUpFinish, TopUpRecord } from "./top-up";
import { finishedTopUp, TOP_UP_REASON, topUpUsageItem } from "./top-up";
import { emptyWallet } from "./rules";
import type { Wallet } from "./types";
import { answer, journalEntry, noEffects, walletAfter, type Decision } from "./effects";

export interface FinishTopUpFacts {
  topUp: TopUpRecord | null;
  /** The top-up's user's wallet, null when none. */
  wallet: Wallet | null;
}

export function decideFinishTopUp(cmd: FinishTopUpCommand, facts: FinishTopUpFacts, newEntryId: () => string): Decision<TopUpFinish> {
  const existing = facts.topUp;
  if (!existing) return answer({ status: "unknown" });
  if (existing.state !== "pending") return answer({ status: "already", record: existing });
  const record = finishedTopUp(existing, cmd.outcome, cmd.now);
  const effects = noEffects();
  effects.endedTopUps.push(record);
  if (record.state !== "credited") return { result: { status: "finished", record }, effects };
  const entry = journalEntry(
    newEntryId(),
    {
      userId: record.userId,
      kind: "grant",
      amountCredits: record.amountCredits,
      heldDeltaCredits: 0,
      referenceId: record.topUpId,
      reason: TOP_UP_REASON,
    },
    cmd.now,
  );
  effects.moves.push(entry);
  effects.usage.push(topUpUsageItem(entry, record));
  const wallet = walletAfter(facts.wallet ?? emptyWallet(record.userId), effects.moves);
  return { result: { status: "finished", record, wallet, entry }, effects };
}
