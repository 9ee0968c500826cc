// ListJournal: a user's credit movements, oldest first, with their sums (= balance and held credits).
import type { UnaryHandler } from "@agentic/platform";
import type { ListJournalRequest, ListJournalResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";

export function listJournal(ledger: Ledger): UnaryHandler<ListJournalRequest, ListJournalResponse> {
  return async (req) => {
    const journal = await ledger.listJournal(req.userId);
    return {
      entries: journal.entries,
      journalBalanceCredits: journal.balanceCredits,
      journalHeldCredits: journal.heldCredits,
    };
  };
}
