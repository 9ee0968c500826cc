// The SQLite store answers nothing before the fsync of the WAL that covers it completed (that fsync runs
// on the libuv threadpool after a COMMIT without one), and a failed fsync fails what it covered and
// every operation after it. The fsync is the real fdatasync of the WAL file, held back by the test.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { findLedgerViolations } from "../../../test/consistency";
import type { WalSync } from "./sqlite-db";
import { SqliteLedgerStore } from "./sqlite-store";

const T0 = new Date("2030-01-01T00:00:00.000Z");
const expiresAt = new Date(T0.getTime() + 60_000);

/** A WAL sync each run of which waits until the test releases it, then fdatasyncs the WAL for real. */
function heldSyncs() {
  const begun: { release: () => void }[] = [];
  let onBegin = (): void => {};
  let free = false;
  const sync: WalSync = async (wal) => {
    if (!free)
      await new Promise<void>((release) => {
        begun.push({ release });
        onBegin();
      });
    await wal.datasync();
  };
  /** Releases every fsync held, and holds none after. */
  const releaseAll = () => {
    free = true;
    for (const b of begun) b.release();
  };
  /** The n-th fsync (from 1), once it has begun. */
  const nth = async (n: number) => {
    while (begun.length < n) await new Promise<void>((resolve) => (onBegin = resolve));
    return begun[n - 1]!;
  };
  return { sync, nth, releaseAll, count: () => begun.length };
}

/** Resolves once the current event-loop turn ended: the groups opened in it have committed. */
const turnEnded = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("SqliteLedgerStore's WAL fsync", () => {
  let dir: string;
  let path: string;
  /** The grants another connection sees: what was committed, answered or not. */
  const committedGrants = () => {
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      return (db.prepare("SELECT reference_id FROM journal WHERE kind = 'grant' ORDER BY seq").all() as { reference_id: string }[]).map(
        (r) => r.reference_id,
      );
    } finally {
      db.close();
    }
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ledger-wal-fsync-"));
    path = join(dir, "ledger.sqlite");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("answers an operation, and a read that saw it, only once an fsync begun after its COMMIT completed; groups committed meanwhile share the next", async () => {
    const syncs = heldSyncs();
    const store = await SqliteLedgerStore.open({ path, walSync: syncs.sync });
    try {
      const answered: string[] = [];
      const track = <T>(name: string, p: Promise<T>) =>
        p.then((value) => {
          answered.push(name);
          return value;
        });
      const grant = (id: string, amountCredits: number) => store.grant({ grantId: id, userId: "u1", amountCredits, reason: "", now: T0 });

      const g1 = track("g1", grant("g1", 100));
      const first = await syncs.nth(1);
      // Committed (another connection sees it) but not answered while its fsync runs; nor is a read that saw it.
      expect(committedGrants()).toEqual(["g1"]);
      const read1 = track("read1", store.getWallet("u1"));
      const g2 = track("g2", grant("g2", 50));
      await turnEnded();
      // The next turn's group committed without waiting for the first fsync, and waits for an fsync of its own.
      expect(committedGrants()).toEqual(["g1", "g2"]);
      expect({ answered, fsyncs: syncs.count() }).toEqual({ answered: [], fsyncs: 1 });

      first.release();
      await expect(g1).resolves.toMatchObject({ status: "granted" });
      await expect(read1).resolves.toMatchObject({ balanceCredits: 100 });
      const second = await syncs.nth(2);
      const read2 = track("read2", store.getWallet("u1"));
      await turnEnded();
      expect(answered).toEqual(["g1", "read1"]);

      second.release();
      await expect(g2).resolves.toMatchObject({ status: "granted" });
      await expect(read2).resolves.toMatchObject({ balanceCredits: 150 });
      expect(answered).toEqual(["g1", "read1", "g2", "read2"]);
      // Nothing waits: a read answers at once, with no fsync.
      await expect(store.getWallet("u1")).resolves.toMatchObject({ balanceCredits: 150 });
      expect(syncs.count()).toBe(2);
    } finally {
      syncs.releaseAll();
      await store.close();
    }
  });

  it("fails the operations a failed fsync covered, and refuses every operation after it until reopened", async () => {
    let failing = false;
    const lost: Error[] = [];
    const store = await SqliteLedgerStore.open({
      path,
      walSync: async (wal) => {
        if (failing) throw Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" });
        await wal.datasync();
      },
      onDurabilityLost: (failure) => lost.push(failure),
    });
    const hold = (holdId: string, amountCredits: number) =>
      store.hold({ holdId, userId: "u1", amountCredits, routeKey: "r", expiresAt, now: T0 });
    try {
      await store.grant({ grantId: "g1", userId: "u1", amountCredits: 100, reason: "", now: T0 });
      failing = true;
      const refused = /an fsync of the WAL failed \(EIO: i\/o error, fdatasync\); the store refuses every operation/;
      // One group: two holds and a read that saw them.
      const answers = await Promise.allSettled([hold("h1", 10), hold("h2", 20), store.getWallet("u1")]);
      expect(answers.map((a) => (a.status === "rejected" ? String(a.reason) : a.status))).toEqual([
        expect.stringMatching(refused),
        expect.stringMatching(refused),
        expect.stringMatching(refused),
      ]);
      // The disk would work again: the store still refuses, writes, reads and ping alike.
      failing = false;
      await expect(hold("h3", 5)).rejects.toThrow(refused);
      await expect(store.getWallet("u1")).rejects.toThrow(refused);
      await expect(store.ping()).rejects.toThrow(refused);
      // Told once, so the ledger's main can exit and be restarted.
      expect(lost.map(String)).toEqual([expect.stringMatching(refused)]);
    } finally {
      await store.close();
    }
    // Reopened, it reads what the file holds: consistent books, and a retried hold is not held twice.
    const reopened = await SqliteLedgerStore.open({ path });
    try {
      await expect(findLedgerViolations(reopened)).resolves.toEqual([]);
      const heldBefore = (await reopened.getWallet("u1")).heldCredits;
      await expect(
        reopened.hold({ holdId: "h1", userId: "u1", amountCredits: 10, routeKey: "r", expiresAt, now: T0 }),
      ).resolves.toMatchObject({ status: heldBefore === 0 ? "created" : "replayed" });
      const held = heldBefore === 0 ? 10 : heldBefore;
      await expect(reopened.getWallet("u1")).resolves.toMatchObject({ balanceCredits: 100 - held, heldCredits: held });
    } finally {
      await reopened.close();
    }
  });
});
