// A backup of the SQLite ledger taken while it serves holds and captures, restored into a fresh
// ledger: the books reconcile to the credit with what the backup had (every wallet equals its
// journal; every hold settled before the backup began is in it, none begun after it ended), and the
// money that moved after the backup is accounted for by the settlements replayed from the stream
// (the restore procedure removes the `ledger` consumer, the next ledger replays EXECUTIONS from the
// start): each hold the backup caught half-way is captured, none twice.
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "nats";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EXECUTIONS_STREAM } from "@agentic/platform";
import { waitFor } from "@agentic/testing";
import { backupSqliteLedger, restoreSqliteLedger } from "../../src/backup/sqlite-backup";
import { SETTLEMENT_DURABLE } from "../../src/bus/settlement-consumer";
import { SqliteLedgerStore } from "../../src/store/sqlite/sqlite-store";
import { SettlementKind, assertLedgerConsistent, publishSettlement, startTestLedger, type TestLedger } from "../harness";
import { uid, useNatsServer } from "../support";

const nats = useNatsServer();
const GRANT = 100_000;
const HOLD = 10;
const CAPTURE = 7;

describe("SQLite backup under load", () => {
  const dir = mkdtempSync(join(tmpdir(), "ledger-backup-"));
  const running: TestLedger[] = [];
  const stores: SqliteLedgerStore[] = [];
  afterAll(async () => {
    await Promise.all(running.map((l) => l.stop()));
    await Promise.all(stores.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it("restores a consistent snapshot, and the stream's replay completes it without charging twice", async () => {
    const store = await SqliteLedgerStore.open({ path: join(dir, "ledger.db") });
    const ledger = await startTestLedger({ natsUrl: nats().url, store });
    running.push(ledger);
    const users = [uid("user"), uid("user"), uid("user")];
    for (const userId of users) await ledger.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: GRANT, reason: "" });

    // Load: two workers per user, each holding 10 credits and capturing 7 through EXECUTIONS, until stopped.
    const holds: { holdId: string; userId: string; startedAfterBackup: boolean }[] = [];
    const settled = new Set<string>();
    let backupDone = false;
    let stop = false;
    const worker = async (userId: string) => {
      while (!stop) {
        const hold = { holdId: uid("hold"), userId, startedAfterBackup: backupDone };
        holds.push(hold);
        await ledger.client.holdCredits({ holdId: hold.holdId, userId, amountCredits: HOLD, ttlMs: 0, routeKey: "" });
        await publishSettlement(ledger.nc, {
          holdId: hold.holdId,
          userId,
          kind: SettlementKind.SETTLEMENT_KIND_CAPTURE,
          capturedCredits: CAPTURE,
        });
        await ledger.waitForSettlement(hold.holdId);
        settled.add(hold.holdId);
      }
    };
    const load = Promise.all(users.flatMap((u) => [worker(u), worker(u)]));
    await waitFor(() => settled.size >= 30, { timeoutMs: 30_000 });

    const settledBefore = new Set(settled);
    const backup = await backupSqliteLedger(store.path, join(dir, "backup.db"));
    backupDone = true;
    const countAtBackupEnd = settled.size;
    await waitFor(() => settled.size >= countAtBackupEnd + 30, { timeoutMs: 30_000 }); // it kept serving
    stop = true;
    await load;
    await ledger.stop();
    running.splice(0);
    await store.close();

    const restoredPath = join(dir, "restored", "ledger.db");
    const restored = await restoreSqliteLedger(backup.path, restoredPath);
    expect(restored.storeId).toBe(backup.storeId);
    const restoredStore = await SqliteLedgerStore.open({ path: restoredPath });
    stores.push(restoredStore);

    // The snapshot: every wallet equals its journal; what settled before the backup began is there,
    // nothing begun after it ended is.
    await assertLedgerConsistent(restoredStore, users);
    const stateOf = async (holdId: string) => (await restoredStore.getHold(holdId))?.state;
    for (const holdId of settledBefore) expect(await stateOf(holdId)).toBe("captured");
    for (const h of holds.filter((h) => h.startedAfterBackup)) expect(await stateOf(h.holdId)).toBeUndefined();
    const inBackup = [];
    for (const h of holds) {
      const state = await stateOf(h.holdId);
      if (state) inBackup.push({ ...h, state });
    }
    // To the credit: each user's wallet is the grant less 7 per capture and the 10 each hold still open in the backup holds.
    for (const userId of users) {
      const mine = inBackup.filter((h) => h.userId === userId);
      const captured = mine.filter((h) => h.state === "captured").length;
      const open = mine.filter((h) => h.state === "held").length;
      expect(await restoredStore.getWallet(userId)).toMatchObject({
        balanceCredits: GRANT - CAPTURE * captured - HOLD * open,
        heldCredits: HOLD * open,
      });
    }

    // The restore procedure's next step (`nats consumer rm EXECUTIONS ledger`): without the settlement
    // consumer, the next ledger creates it again and replays every settlement the stream still keeps.
    const admin = await connect({ servers: nats().url });
    await (await admin.jetstreamManager()).consumers.delete(EXECUTIONS_STREAM, SETTLEMENT_DURABLE);
    await admin.close();
    const fresh = await startTestLedger({ natsUrl: nats().url, store: restoredStore });
    running.push(fresh);
    for (const h of inBackup) await fresh.waitForSettlement(h.holdId, { timeoutMs: 30_000 });
    for (const userId of users) {
      const mine = inBackup.filter((h) => h.userId === userId).length;
      expect((await fresh.client.getWallet({ userId })).wallet).toEqual({ userId, balanceCredits: GRANT - CAPTURE * mine, heldCredits: 0 });
    }
    for (const h of inBackup) expect(await stateOf(h.holdId)).toBe("captured");
    await assertLedgerConsistent(restoredStore, users);
  });
});
