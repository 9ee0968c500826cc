// The ledger's audit, run after every test: for each wallet, the balance and held credits equal
// the journal's sums and are never negative; every hold has exactly one hold entry and at most
// one ending entry, and the hold's state and charge agree with the journal.
import { END_STATE, MOVEMENT_JOURNAL_KINDS } from "../src/domain/rules";
import type { LedgerStore } from "../src/domain/ports";

/** Returns every violation found (empty when consistent); `userIds` defaults to every wallet. */
export async function findLedgerViolations(store: LedgerStore, userIds?: string[]): Promise<string[]> {
  const users = userIds ?? (await store.listWallets()).map((w) => w.userId);
  const problems: string[] = [];
  for (const userId of users) {
    const wallet = await store.getWallet(userId);
    const entries = await store.listJournal(userId);
    const balance = entries.reduce((s, e) => s + e.amountCredits, 0);
    const held = entries.reduce((s, e) => s + e.heldDeltaCredits, 0);
    if (wallet.balanceCredits < 0) problems.push(`${userId}: balance ${wallet.balanceCredits} < 0`);
    if (wallet.heldCredits < 0) problems.push(`${userId}: held ${wallet.heldCredits} < 0`);
    if (balance !== wallet.balanceCredits) problems.push(`${userId}: balance ${wallet.balanceCredits} != journal ${balance}`);
    if (held !== wallet.heldCredits) problems.push(`${userId}: held ${wallet.heldCredits} != journal ${held}`);

    const byHold = new Map<string, typeof entries>();
    // Grants, refunds and adjustments move the balance alone; every other entry belongs to a hold.
    for (const e of entries)
      if (!MOVEMENT_JOURNAL_KINDS.includes(e.kind)) byHold.set(e.referenceId, [...(byHold.get(e.referenceId) ?? []), e]);
    let openHeld = 0;
    for (const [holdId, list] of byHold) {
      const holds = list.filter((e) => e.kind === "hold");
      const endings = list.filter((e) => e.kind !== "hold");
      if (holds.length !== 1) problems.push(`${holdId}: ${holds.length} hold entries`);
      if (endings.length > 1) problems.push(`${holdId}: settled ${endings.length} times (${endings.map((e) => e.kind).join(", ")})`);
      const hold = await store.getHold(holdId);
      if (!hold) {
        problems.push(`${holdId}: journal entries without a hold`);
        continue;
      }
      const ending = endings[0];
      const expectedState = ending ? END_STATE[ending.kind as keyof typeof END_STATE] : "held";
      if (hold.state !== expectedState) problems.push(`${holdId}: state ${hold.state} but journal says ${expectedState}`);
      if (ending && ending.amountCredits + ending.heldDeltaCredits !== -hold.capturedCredits) {
        problems.push(
          `${holdId}: journal charged ${-(ending.amountCredits + ending.heldDeltaCredits)} but hold says ${hold.capturedCredits}`,
        );
      }
      if (!ending) openHeld += hold.amountCredits;
    }
    if (openHeld !== wallet.heldCredits) problems.push(`${userId}: open holds total ${openHeld} but held is ${wallet.heldCredits}`);
  }
  return problems;
}

/** Throws with every violation when the ledger is inconsistent. */
export async function assertLedgerConsistent(store: LedgerStore, userIds?: string[]): Promise<void> {
  const problems = await findLedgerViolations(store, userIds);
  if (problems.length) throw new Error(`ledger inconsistent:\n  ${problems.join("\n  ")}`);
}
