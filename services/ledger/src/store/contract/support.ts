// What every part of the LedgerStore contract suite shares: the factory of an empty store, fixed
// times, a usage draft, the wallet-equals-journal check, and a fresh store per test with the
// helpers the tests place grants, holds and settlements with.
import type { LedgerStore, SettleCommand } from "../../domain/ports";
import type { UsageDraft, Wallet } from "../../domain/types";

/** Creates an empty store; `dispose` runs after each test (drop the database, close clients). */
export type StoreFactory = () => Promise<{ store: LedgerStore; dispose?: () => Promise<void> }>;

export const T0 = new Date("2030-01-01T00:00:00.000Z");
export const at = (ms: number) => new Date(T0.getTime() + ms);
export const MIN = 60_000;

export function usage(overrides: Partial<UsageDraft> = {}): UsageDraft {
  return {
    usageId: `use_${Math.random().toString(36).slice(2)}`,
    createdAt: T0,
    productKey: "email",
    capabilityKey: "email.send",
    routeKey: "email.send/resend",
    provider: "resend",
    networkKey: "direct",
    status: "succeeded",
    durationMs: 12,
    traceId: "0af7651916cd43dd8448eb211c80319c",
    ...overrides,
  };
}

/** Balance and held credits equal the journal's sums, and neither is negative. */
export async function expectWalletMatchesJournal(store: LedgerStore, userId: string): Promise<Wallet> {
  const wallet = await store.getWallet(userId);
  const entries = await store.listJournal(userId);
  expect(wallet.balanceCredits).toBeGreaterThanOrEqual(0);
  expect(wallet.heldCredits).toBeGreaterThanOrEqual(0);
  expect(entries.reduce((s, e) => s + e.amountCredits, 0)).toBe(wallet.balanceCredits);
  expect(entries.reduce((s, e) => s + e.heldDeltaCredits, 0)).toBe(wallet.heldCredits);
  return wallet;
}

/** A fresh store for each test of the enclosing describe (disposed after it), and helpers over it. */
export function useContractStore(makeStore: StoreFactory) {
  let current: LedgerStore | undefined;
  let dispose: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    ({ store: current, dispose } = await makeStore());
  });
  afterEach(async () => {
    await dispose?.();
  });
  const store = () => current!;
  return {
    store,
    grant: (userId: string, amountCredits: number, grantId = `grant_${userId}_${amountCredits}`) =>
      store().grant({ grantId, userId, amountCredits, reason: "test", now: T0 }),
    hold: (holdId: string, userId: string, amountCredits: number, expiresAt = at(2 * MIN)) =>
      store().hold({ holdId, userId, amountCredits, routeKey: "r", expiresAt, now: T0 }),
    settle: (cmd: Partial<SettleCommand> & Pick<SettleCommand, "holdId" | "kind">) =>
      store().settleHold({ userId: "u1", capturedCredits: 0, now: at(1_000), ...cmd }),
  };
}
