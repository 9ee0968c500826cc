// Announces on core NATS (WalletChanged on ledger.wallet.changed) every store operation that may change
// what GetWallet answers for a user, once it has committed: routers cache wallet reads and drop a user's
// the moment one arrives. It wraps the store the domain, the settlement consumer, the expiry sweeper and
// the top-ups use, so every path to a write announces; a store operation resolves only once its commit
// is durable, so nothing is announced that could still roll back.
//
// Every LedgerStore method is classified below (a new one does not compile until it is): what GetWallet
// reads is the wallet (balance, held), the user's keys (a revoked key's policies stop applying), their
// spend policies and the spend counted against them (holds, captures, releases, expiries, quotes).
// An operation announces whatever its status: a replay announces again what a crash between its first
// commit and its publish may have lost, and a refusal costs a router one read more, nothing else.
import type { NatsConnection } from "nats";
import { SUBJECT_WALLET_CHANGED, type Logger } from "@agentic/platform";
import { WalletChanged } from "@agentic/proto/events/v1";
import type { LedgerStore } from "../domain/ports";

/** How long an operation a person waits for waits for NATS to have the announcement (PING/PONG), at most. */
export const ANNOUNCE_FLUSH_WAIT_MS = 250;

export interface WalletAnnouncer {
  /**
   * Publishes that `userId`'s wallet may have changed. `flush`: resolves once the server has routed it
   * (bounded), so a caller told of the change cannot reach a router before the news does.
   */
  announce(userId: string, opts: { flush: boolean }): Promise<void>;
}

/** Which user an operation's result concerns, and whether its caller waits for the announcement to be routed. */
interface Announced<K extends keyof LedgerStore> {
  userOf: LedgerStore[K] extends (...args: infer A) => Promise<infer R>
    ? (store: LedgerStore, result: R, ...args: A) => string | undefined | Promise<string | undefined>
    : never;
  /**
   * false on the execute's hot path (a hold, the claim with its hold: the answer waits for no extra round
   * trip, and a provider call follows before the agent can ask again) and on the bus (nobody waits).
   */
  flush: boolean;
}

/** The user of a key (spend policies are set per key). */
async function userOfKey(store: LedgerStore, keyId: string): Promise<string | undefined> {
  return (await store.getApiKey(keyId))?.userId;
}

/** null: the method changes nothing GetWallet reads (reads, idempotency records, executions, bookkeeping). */
const WALLET_WRITES: { [K in keyof LedgerStore]: Announced<K> | null } = {
  ping: null,
  close: null,
  storeId: null,
  insertApiKey: { userOf: (_s, r) => r.record.userId, flush: true },
  findApiKeyByHash: null,
  getApiKey: null,
  listApiKeys: null,
  revokeApiKey: { userOf: (_s, r) => r?.userId, flush: true },
  // Key limits (rate, in-flight) are not part of GetWallet today; announced as every change to a key is.
  setApiKeyLimits: { userOf: (_s, r) => r?.userId, flush: true },
  getWallet: null,
  listWallets: null,
  grant: { userOf: (_s, _r, cmd) => cmd.userId, flush: true },
  moveCredits: { userOf: (_s, _r, cmd) => cmd.userId, flush: true },
  hold: { userOf: (_s, _r, cmd) => cmd.userId, flush: false },
  claimAndHold: { userOf: (_s, _r, cmd) => cmd.claim.userId, flush: false },
  getHold: null,
  // Captures, releases (the settlement consumer) and expiries (the sweeper): the hold's own user.
  settleHold: { userOf: (_s, r, cmd) => ("hold" in r ? r.hold.userId : cmd.userId), flush: false },
  setSpendPolicy: { userOf: (s, _r, policy) => userOfKey(s, policy.keyId), flush: true },
  clearSpendPolicy: { userOf: (s, _r, keyId) => userOfKey(s, keyId), flush: true },
  listSpendPolicies: null,
  spendUsage: null,
  createQuote: { userOf: (_s, _r, cmd) => cmd.userId, flush: true },
  getQuote: null,
  listExpiredHolds: null,
  listUsage: null,
  sumUsage: null,
  listJournal: null,
  // Claims and completions record a request's answer; no credits move.
  claimIdempotencyKey: null,
  completeIdempotencyKey: null,
  completeExecution: null,
  getExecution: null,
  listAbandonedExecutions: null,
  abandonExecution: null,
  countIndeterminateExecutions: null,
  getOwnedResource: null,
  listPayments: null,
  listPlatformLosses: null,
  sumCharges: null,
  sumPayments: null,
  sumCreditMovements: null,
  getTopUp: null,
  // A pending top-up credits nothing until it finishes.
  startTopUp: null,
  finishTopUp: { userOf: (_s, r) => ("record" in r ? r.record.userId : undefined), flush: true },
  listStalePendingTopUps: null,
};

/** The store, announcing each committed wallet change through `announcer` before the operation resolves. */
export function announcingWalletChanges(store: LedgerStore, announcer: WalletAnnouncer, logger: Logger): LedgerStore {
  const wrapped: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(WALLET_WRITES) as [keyof LedgerStore, Announced<keyof LedgerStore> | null][]) {
    const method = (store[name] as (...args: unknown[]) => Promise<unknown>).bind(store);
    if (!rule) {
      wrapped[name] = method;
      continue;
    }
    const userOf = rule.userOf as (
      store: LedgerStore,
      result: unknown,
      ...args: unknown[]
    ) => string | undefined | Promise<string | undefined>;
    wrapped[name] = async (...args: unknown[]) => {
      const result = await method(...args);
      // The commit stands whatever happens here: a failed announcement is logged, never the operation's failure.
      try {
        const userId = await userOf(store, result, ...args);
        if (userId) await announcer.announce(userId, { flush: rule.flush });
      } catch (err) {
        logger.warn({ err, operation: name }, "wallet change not announced");
      }
      return result;
    };
  }
  return wrapped as unknown as LedgerStore;
}

/** Publishes on NATS; a publish that fails (the connection closed) is logged: routers' cached reads expire on their own. */
export function natsWalletAnnouncer(nc: NatsConnection, logger: Logger, flushWaitMs = ANNOUNCE_FLUSH_WAIT_MS): WalletAnnouncer {
  return {
    async announce(userId, { flush }) {
      try {
        nc.publish(SUBJECT_WALLET_CHANGED, WalletChanged.encode({ userId }).finish());
      } catch (err) {
        logger.warn({ err, userId }, "wallet change not published");
        return;
      }
      if (!flush) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([nc.flush().catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, flushWaitMs)))]);
      clearTimeout(timer);
    },
  };
}
