// Ledgers sharing one NATS must share one store: a ledger announces its store id in the KV bucket
// ledger_store (key identity, with a TTL) and refuses to start while a live announcement names
// another store. Replicas on the same store start; a stopped ledger withdraws its announcement.
import { connect, type KV, type NatsConnection } from "nats";
import { createLogger } from "@agentic/platform";
import { startNatsServer, waitFor, testIdentities } from "@agentic/testing";
import { startLedgerApp, type LedgerApp } from "../../src/app";
import { STORE_IDENTITY_BUCKET, STORE_IDENTITY_KEY } from "../../src/bus/store-identity";
import { storeIdentityConflict } from "../../src/metrics";
import type { LedgerStore } from "../../src/domain/ports";
import { startTestLedger, type TestLedger, openMemoryStore } from "../harness";
import { useNatsServer } from "../support";

const nats = useNatsServer();
const REFUSAL = /another ledger runs on another store/;

/** The announced store id, or undefined when nothing live is announced. */
async function announced(kv: KV): Promise<string | undefined> {
  const entry = await kv.get(STORE_IDENTITY_KEY);
  return entry?.operation === "PUT" ? entry.json<{ storeId: string }>().storeId : undefined;
}

/** The real wiring with a short announcement TTL (the harness keeps production's 30 s / 10 s). */
async function startShortLived(natsUrl: string, store: LedgerStore, storeIdentity: { ttlMs: number; refreshMs: number }) {
  const nc = await connect({ servers: natsUrl });
  let app: LedgerApp;
  try {
    app = await startLedgerApp({
      store,
      nc,
      logger: createLogger("ledger", process.env.LEDGER_TEST_LOG_LEVEL ?? "silent"),
      bindAddress: "127.0.0.1:0",
      trustedKeys: testIdentities().trusted,
      development: true,
      holdTtlMs: 60_000,
      sweepIntervalMs: 1_000,
      grpcStopGraceMs: 2_000,
      storeIdentity,
    });
  } catch (err) {
    await nc.close();
    throw err;
  }
  return { app, stop: () => app.stop().then(() => nc.close()) };
}

describe("ledgers on one NATS", () => {
  const running: Array<{ stop(): Promise<void> }> = [];
  let nc: NatsConnection;
  let kv: KV;
  beforeAll(async () => {
    nc = await connect({ servers: nats().url });
    // Created here without a TTL: the first ledger brings it to its configured one.
    kv = await nc.jetstream().views.kv(STORE_IDENTITY_BUCKET, { history: 1 });
  });
  afterAll(async () => {
    await nc.close();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((l) => l.stop()));
  });
  const start = async (store?: LedgerStore): Promise<TestLedger> => {
    const ledger = await startTestLedger({ natsUrl: nats().url, ...(store ? { store } : {}) });
    running.push(ledger);
    return ledger;
  };

  it("a second ledger with its own store refuses to start, and says how to fix it", async () => {
    const first = await start();
    const refusal = startTestLedger({ natsUrl: nats().url, store: await openMemoryStore() });
    await expect(refusal).rejects.toThrow(REFUSAL);
    await expect(refusal).rejects.toThrow(/same store|share/);
    await expect(refusal).rejects.toThrow(/stop the other ledger/);
    await expect(refusal).rejects.toThrow(new RegExp(await first.store.storeId())); // names the store in the way
    // The refused ledger left the first one's announcement alone.
    expect(await announced(kv)).toBe(await first.store.storeId());
    await expect(first.client.getWallet({ userId: "u" })).resolves.toBeDefined();
  });

  it("a second ledger sharing the first one's store starts beside it", async () => {
    const first = await start();
    const replica = await start(first.store);
    expect(replica.port).not.toBe(first.port);
    expect(await announced(kv)).toBe(await first.store.storeId());
  });

  it("once the first ledger has stopped, a ledger with another store starts", async () => {
    const first = await start();
    await first.stop();
    expect(await announced(kv)).toBeUndefined(); // withdrawn at stop, not left to expire
    const other = await start(await openMemoryStore());
    expect(await announced(kv)).toBe(await other.store.storeId());
  });

  it("of two ledgers on different stores starting at once, exactly one starts", async () => {
    const attempts = await Promise.allSettled([0, 1].map(async () => start(await openMemoryStore())));
    expect(attempts.map((a) => a.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(String((attempts.find((a) => a.status === "rejected") as PromiseRejectedResult).reason)).toMatch(REFUSAL);
  });

  it("a running ledger keeps its announcement alive past the TTL", async () => {
    const store = await openMemoryStore();
    const ours = await store.storeId();
    running.push(await startShortLived(nats().url, store, { ttlMs: 600, refreshMs: 100 }));

    // The current announcement, then eight refreshes (at least 800 ms, longer than the 600 ms TTL), awaited as they are written.
    const watch = await kv.watch({ key: STORE_IDENTITY_KEY });
    let writes = 0;
    for await (const entry of watch)
      if (entry.operation === "PUT" && entry.json<{ storeId: string }>().storeId === ours && ++writes === 9) break;
    watch.stop();
    await expect(startShortLived(nats().url, await openMemoryStore(), { ttlMs: 600, refreshMs: 100 })).rejects.toThrow(REFUSAL);
  });

  it("a running ledger that finds another store announced reports it, and does not delete it when it stops", async () => {
    const ledger = await startShortLived(nats().url, await openMemoryStore(), { ttlMs: 30_000, refreshMs: 100 });
    running.push(ledger);
    // As if another ledger had started while our announcement was missing (NATS unreachable past the TTL).
    await kv.put(STORE_IDENTITY_KEY, JSON.stringify({ storeId: "store_elsewhere", holder: "test", at: new Date().toISOString() }));
    await waitFor(async () => (await storeIdentityConflict.get()).values[0]?.value === 1, {
      what: "ledger_store_identity_conflict to be 1",
    });
    await running.pop()!.stop();
    expect(await announced(kv)).toBe("store_elsewhere");
  });
});

describe("a ledger that died without stopping", () => {
  it("blocks a ledger on another store until its announcement expires (the TTL), no longer", async () => {
    const server = await startNatsServer();
    const nc = await connect({ servers: server.url });
    try {
      // What a crashed ledger leaves: its last announcement, in a bucket with a 1 s TTL.
      const kv = await nc.jetstream().views.kv(STORE_IDENTITY_BUCKET, { ttl: 1_000, history: 1 });
      await kv.create(STORE_IDENTITY_KEY, JSON.stringify({ storeId: "store_crashed", holder: "gone/1", at: new Date().toISOString() }));
      const store = await openMemoryStore();
      await expect(startShortLived(server.url, store, { ttlMs: 1_000, refreshMs: 250 })).rejects.toThrow(
        /store_crashed \(written by gone\/1/,
      );

      await waitFor(async () => (await announced(kv)) === undefined, {
        timeoutMs: 5_000,
        what: "the crashed ledger's announcement to expire",
      });
      const ledger = await startShortLived(server.url, store, { ttlMs: 1_000, refreshMs: 250 });
      expect(await announced(kv)).toBe(await store.storeId());
      await ledger.stop();
    } finally {
      await nc.close();
      await server.stop();
    }
  });
});
