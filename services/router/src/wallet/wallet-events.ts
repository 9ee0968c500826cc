// Feeds the wallet cache from the ledger's announcements (WalletChanged on core NATS subject
// ledger.wallet.changed): each one drops its user's cached reads. Core NATS delivers only while
// connected, so the cache is live only while the subscription is known to be in place: from the server's
// answer to a PING sent after the SUB (at start and after every reconnect) until the connection drops.
// A subscription the server refuses (permissions) leaves the cache bypassed for good, loudly.
import { DebugEvents, Events, type NatsConnection, type Subscription } from "nats";
import { SUBJECT_WALLET_CHANGED, type Logger } from "@agentic/platform";
import { WalletChanged } from "@agentic/proto/events/v1";
import type { WalletCache } from "./wallet-cache";

/** Connection events after which announcements may be missed until the next confirmed reconnect. */
const DEAF: ReadonlySet<string> = new Set([
  Events.Disconnect,
  DebugEvents.Reconnecting,
  DebugEvents.StaleConnection,
  DebugEvents.ClientInitiatedReconnect,
]);

export interface WalletEvents {
  /** Resolves once the cache first went live (or the subscription failed: it stays bypassed). */
  readonly ready: Promise<void>;
  /** Calls `listener` with the user of every announcement applied; returns the unsubscribe. */
  onAnnouncement(listener: (userId: string) => void): () => void;
  /** Unsubscribes; the cache is bypassed from here on. */
  stop(): void;
}

export function followWalletEvents(nc: NatsConnection, cache: WalletCache, logger: Logger): WalletEvents {
  const listeners = new Set<(userId: string) => void>();
  let stopped = false;
  let failed = false;
  /** Moves on every connection change, so a confirmation from before one cannot make the cache live. */
  let attempt = 0;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const sub: Subscription = nc.subscribe(SUBJECT_WALLET_CHANGED, {
    callback: (err, msg) => {
      if (err) {
        // The server refused the subscription (NATS permissions) or it ended: announcements will not come.
        failed = true;
        cache.setLive(false);
        logger.error({ err, subject: SUBJECT_WALLET_CHANGED }, "wallet announcements unavailable: every recommend reads the wallet");
        markReady();
        return;
      }
      let userId: string;
      try {
        userId = WalletChanged.decode(msg.data).userId;
      } catch (decodeErr) {
        logger.warn({ err: decodeErr }, "unreadable wallet announcement: every cached wallet dropped");
        cache.clear();
        return;
      }
      if (!userId) {
        cache.clear();
        return;
      }
      cache.invalidate(userId);
      for (const listener of listeners) listener(userId);
    },
  });

  /** Live once the server has answered a PING sent after the SUB: from then on no announcement is missed. */
  const confirm = () => {
    const mine = ++attempt;
    nc.flush().then(
      () => {
        if (mine !== attempt || stopped || failed || sub.isClosed()) return;
        cache.setLive(true);
        markReady();
      },
      () => undefined, // disconnected before the answer: the next reconnect confirms again
    );
  };

  void (async () => {
    for await (const status of nc.status()) {
      if (stopped) return;
      if (DEAF.has(status.type)) {
        attempt++;
        if (cache.isLive) logger.warn({ status: status.type }, "wallet announcements may be missed: wallet cache cleared and bypassed");
        cache.setLive(false);
      } else if (status.type === Events.Reconnect) confirm();
    }
  })();
  confirm();

  return {
    ready,
    onAnnouncement(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      stopped = true;
      attempt++;
      cache.setLive(false);
      if (!sub.isClosed()) sub.unsubscribe();
      listeners.clear();
    },
  };
}
