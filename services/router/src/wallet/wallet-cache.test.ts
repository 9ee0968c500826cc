import type { WalletView } from "@agentic/ranking";
import { CLOCK_SKEW_ALLOWANCE_MS, WalletCache } from "./wallet-cache";

const T0 = Date.parse("2030-01-01T10:00:00Z");
const view = (balanceCredits: number, resetsAt?: string): WalletView => ({
  balanceCredits,
  spendLimits: resetsAt ? [{ owner: "key key_1", remainingCredits: 5, caps: [], resetsAt }] : [],
});

/** A ledger stand-in that answers each read with the balance it holds now, and counts the reads. */
function ledger(balance = 100) {
  const state = { balance, reads: 0 };
  return {
    state,
    load: (resetsAt?: string) => async () => {
      state.reads++;
      return view(state.balance, resetsAt);
    },
  };
}

/** A read the test answers when it wants. */
function pending() {
  let answer!: (v: WalletView) => void;
  const promise = new Promise<WalletView>((resolve) => (answer = resolve));
  return { load: () => promise, answer };
}

function liveCache(opts: { maxEntries?: number; maxAgeMs?: number } = {}) {
  const clock = { now: T0 };
  const cache = new WalletCache({ maxEntries: opts.maxEntries ?? 100, maxAgeMs: opts.maxAgeMs ?? 10_000, now: () => clock.now });
  cache.setLive(true);
  return { cache, clock };
}

const u1 = { userId: "u1", keyId: "key_1" };

describe("WalletCache", () => {
  it("answers a second read of the same (user, key, agent) without loading; another key or agent loads its own", async () => {
    const { cache } = liveCache();
    const l = ledger();
    expect(await cache.read(u1, l.load())).toEqual(view(100));
    l.state.balance = 1; // unannounced: the cache does not know
    expect(await cache.read(u1, l.load())).toEqual(view(100));
    expect(l.state.reads).toBe(1);
    expect(await cache.read({ ...u1, agentName: "alpha" }, l.load())).toEqual(view(1));
    expect(await cache.read({ userId: "u1" }, l.load())).toEqual(view(1));
    expect(l.state.reads).toBe(3);
    expect(cache.stats).toMatchObject({ hits: 1, misses: 3 });
  });

  it("drops every answer of a user on its announcement, and only that user's", async () => {
    const { cache } = liveCache();
    const l = ledger();
    await cache.read(u1, l.load());
    await cache.read({ ...u1, agentName: "alpha" }, l.load());
    await cache.read({ userId: "u2" }, l.load());
    l.state.balance = 7;
    cache.invalidate("u1");
    expect(await cache.read(u1, l.load())).toEqual(view(7));
    expect(await cache.read({ ...u1, agentName: "alpha" }, l.load())).toEqual(view(7));
    expect(await cache.read({ userId: "u2" }, l.load())).toEqual(view(100));
    expect(l.state.reads).toBe(5);
  });

  it("never stores a read that started before an announcement of its user", async () => {
    const { cache } = liveCache();
    const slow = pending();
    const reading = cache.read(u1, slow.load);
    cache.invalidate("u1"); // the change committed while the read was on its way
    slow.answer(view(100)); // what the ledger answered from before the change
    expect(await reading).toEqual(view(100));
    const l = ledger(40);
    expect(await cache.read(u1, l.load())).toEqual(view(40));
    expect(l.state.reads).toBe(1);
  });

  it("stores a read that started before another user's announcement", async () => {
    const { cache } = liveCache();
    const slow = pending();
    const reading = cache.read(u1, slow.load);
    cache.invalidate("u2");
    slow.answer(view(100));
    await reading;
    const l = ledger(40);
    expect(await cache.read(u1, l.load())).toEqual(view(100));
    expect(l.state.reads).toBe(0);
  });

  it("is empty and bypassed while announcements may be missed, and stores nothing read meanwhile", async () => {
    const { cache } = liveCache();
    const l = ledger();
    await cache.read(u1, l.load());
    expect(cache.size).toBe(1);

    cache.setLive(false); // disconnected: an announcement may be lost from here
    l.state.balance = 3;
    expect(await cache.read(u1, l.load())).toEqual(view(3));
    expect(await cache.read(u1, l.load())).toEqual(view(3));
    expect(cache.size).toBe(0);
    expect(cache.stats.bypassed).toBe(2);

    const deafRead = pending();
    cache.setLive(false);
    const spanning = cache.read(u1, deafRead.load); // bypassed: started while deaf
    cache.setLive(true);
    deafRead.answer(view(3));
    await spanning;
    expect(cache.size).toBe(0);
  });

  it("does not store a read that was under way when the subscription dropped, even once live again", async () => {
    const { cache } = liveCache();
    const slow = pending();
    const reading = cache.read(u1, slow.load);
    cache.setLive(false);
    cache.setLive(true);
    slow.answer(view(100));
    await reading;
    expect(cache.size).toBe(0);
  });

  it("expires an answer after maxAgeMs, and before the spend period it shows resets", async () => {
    const { cache, clock } = liveCache({ maxAgeMs: 10_000 });
    const l = ledger();
    await cache.read(u1, l.load());
    clock.now = T0 + 9_999;
    await cache.read(u1, l.load());
    expect(l.state.reads).toBe(1);
    clock.now = T0 + 10_000;
    await cache.read(u1, l.load());
    expect(l.state.reads).toBe(2);

    const resetsAt = new Date(clock.now + 4_000).toISOString(); // a daily budget resetting in 4 s
    const agent = { ...u1, agentName: "daily" };
    await cache.read(agent, l.load(resetsAt));
    clock.now += 4_000 - CLOCK_SKEW_ALLOWANCE_MS - 1;
    await cache.read(agent, l.load(resetsAt));
    expect(l.state.reads).toBe(3);
    clock.now += 1;
    await cache.read(agent, l.load(resetsAt));
    expect(l.state.reads).toBe(4);
  });

  it("does not keep an answer whose period resets within the clock allowance", async () => {
    const { cache, clock } = liveCache();
    const l = ledger();
    const resetsAt = new Date(clock.now + CLOCK_SKEW_ALLOWANCE_MS).toISOString();
    await cache.read(u1, l.load(resetsAt));
    expect(cache.size).toBe(0);
  });

  it("holds at most maxEntries answers, the least recently used out first", async () => {
    const { cache } = liveCache({ maxEntries: 2 });
    const l = ledger();
    for (const userId of ["a", "b", "c"]) await cache.read({ userId }, l.load());
    expect(cache.size).toBe(2);
    await cache.read({ userId: "c" }, l.load());
    await cache.read({ userId: "b" }, l.load());
    expect(l.state.reads).toBe(3);
    await cache.read({ userId: "a" }, l.load());
    expect(l.state.reads).toBe(4);
  });

  it("treats a forgotten announcement as an announcement of everyone (never as none)", async () => {
    const { cache } = liveCache({ maxEntries: 1 }); // remembers 4 announcements
    const l = ledger();
    await cache.read(u1, l.load());
    for (const userId of ["x1", "x2", "x3", "x4", "x5"]) cache.invalidate(userId); // x1's is forgotten
    await cache.read(u1, l.load());
    expect(l.state.reads).toBe(2);
  });

  it("never caches a failed read", async () => {
    const { cache } = liveCache();
    await expect(cache.read(u1, () => Promise.reject(new Error("ledger down")))).rejects.toThrow("ledger down");
    expect(cache.size).toBe(0);
  });

  it("with maxEntries 0 reads the ledger every time", async () => {
    const cache = new WalletCache({ maxEntries: 0, maxAgeMs: 10_000 });
    cache.setLive(true);
    const l = ledger();
    await cache.read(u1, l.load());
    await cache.read(u1, l.load());
    expect(l.state.reads).toBe(2);
  });
});
