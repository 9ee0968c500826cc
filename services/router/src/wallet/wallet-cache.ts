// The router's cache of wallet reads (GetWallet answers) per (user, key, agent), dropped by user when
// the ledger announces a change (ledger.wallet.changed). Rules, each what keeps an answer from being
// stale (README "Wallet reads"):
// - a read that started before an invalidation of its user is never stored (a sequence number: the
//   read remembers where it started; an invalidation moves the user past it);
// - while the announcements may be missed (not yet subscribed, disconnected, reconnecting) the cache is
//   empty and bypassed, and nothing read meanwhile is stored;
// - an entry lives at most `maxAgeMs` (announcements are at most once: a ledger that crashed between
//   its commit and its publish, or was cut from NATS, loses one), and never past the moment its answer
//   changes by time alone (a spend period's reset);
// - bounded: at most `maxEntries` answers (least recently used first out), and as many remembered
//   invalidations times four; forgetting one counts as invalidating every user at that point.
import type { WalletOwner, WalletView } from "@agentic/ranking";
import { LruMap } from "@agentic/ranking";

/** Entries expire this long before a spend period resets by the router's clock: the ledger's may run ahead. */
export const CLOCK_SKEW_ALLOWANCE_MS = 1_000;

export interface WalletCacheSettings {
  /** Most answers kept; 0 turns the cache off (every read goes to the ledger). */
  maxEntries: number;
  /** Longest an answer is served without a read, in ms. */
  maxAgeMs: number;
  /** Wall clock in ms (tests move it). */
  now?: () => number;
}

/** What the cache did, counted since start. */
export interface WalletCacheStats {
  /** Answered from the cache. */
  hits: number;
  /** Read from the ledger while the cache was live (stored unless invalidated meanwhile). */
  misses: number;
  /** Read from the ledger with the cache bypassed (not live, or off). */
  bypassed: number;
  /** Announcements applied. */
  invalidations: number;
}

interface Entry {
  userId: string;
  view: WalletView;
  /** The sequence number when its read started. */
  readFrom: number;
  expiresAtMs: number;
}

export class WalletCache {
  readonly stats: WalletCacheStats = { hits: 0, misses: 0, bypassed: 0, invalidations: 0 };
  private readonly entries: LruMap<string, Entry> | undefined;
  /** user → the sequence number of its last invalidation (insertion order = oldest first). */
  private readonly invalidatedAt = new Map<string, number>();
  private readonly maxInvalidations: number;
  private readonly now: () => number;
  /** Moves on every invalidation and every clear. */
  private seq = 0;
  /** A user without a remembered invalidation counts as invalidated here (the last clear, or the latest forgotten one). */
  private floor = 0;
  private live = false;

  constructor(private readonly settings: WalletCacheSettings) {
    this.entries = settings.maxEntries > 0 ? new LruMap(settings.maxEntries) : undefined;
    this.maxInvalidations = Math.max(1, settings.maxEntries) * 4;
    this.now = settings.now ?? Date.now;
  }

  /** Whether answers are served and stored (the announcements are being received). */
  get isLive(): boolean {
    return this.live;
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }

  /** The answer for `owner`: from the cache when live and fresh, else `load()` (stored when still valid once it answers). */
  async read(owner: WalletOwner, load: () => Promise<WalletView>): Promise<WalletView> {
    if (!this.live || !this.entries) {
      this.stats.bypassed++;
      return load();
    }
    const key = entryKey(owner);
    const cached = this.entries.get(key);
    if (cached) {
      if (cached.readFrom >= this.invalidatedSeq(cached.userId) && this.now() < cached.expiresAtMs) {
        this.stats.hits++;
        return cached.view;
      }
      this.entries.delete(key);
    }
    this.stats.misses++;
    const readFrom = this.seq;
    const view = await load();
    this.store(key, owner.userId, view, readFrom);
    return view;
  }

  /** The ledger announced a change of `userId`'s wallet: its answers, stored or being read, are dropped. */
  invalidate(userId: string): void {
    this.stats.invalidations++;
    this.seq++;
    this.invalidatedAt.delete(userId);
    this.invalidatedAt.set(userId, this.seq);
    if (this.invalidatedAt.size > this.maxInvalidations) {
      const [oldestUser, oldestSeq] = this.invalidatedAt.entries().next().value as [string, number];
      this.invalidatedAt.delete(oldestUser);
      this.floor = Math.max(this.floor, oldestSeq);
    }
  }

  /**
   * Announcements are received (true) or may be missed (false). Either way everything is dropped,
   * and reads started before are not stored: going live, what was read while deaf may be stale.
   */
  setLive(live: boolean): void {
    this.clear();
    this.live = live;
  }

  /** Drops every answer and every read under way (an announcement that names nobody, or lost ones). */
  clear(): void {
    this.seq++;
    this.floor = this.seq;
    this.invalidatedAt.clear();
    this.entries?.clear();
  }

  private invalidatedSeq(userId: string): number {
    return this.invalidatedAt.get(userId) ?? this.floor;
  }

  private store(key: string, userId: string, view: WalletView, readFrom: number): void {
    if (!this.live || !this.entries || readFrom < this.invalidatedSeq(userId)) return;
    const now = this.now();
    let expiresAtMs = now + this.settings.maxAgeMs;
    for (const limit of view.spendLimits) {
      if (limit.resetsAt !== undefined) expiresAtMs = Math.min(expiresAtMs, Date.parse(limit.resetsAt) - CLOCK_SKEW_ALLOWANCE_MS);
    }
    if (!(expiresAtMs > now)) return; // about to reset (or an unreadable reset time): not worth keeping
    this.entries.set(key, { userId, view, readFrom, expiresAtMs });
  }
}

/** One entry per (user, key, agent) asked for; no key and no agent are answers of their own. */
function entryKey(owner: WalletOwner): string {
  return JSON.stringify([owner.userId, owner.keyId || "", owner.agentName || ""]);
}
