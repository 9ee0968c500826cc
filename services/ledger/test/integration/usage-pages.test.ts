// Paging a user's usage with the cursor while settlements keep arriving, over real gRPC, JetStream and a
// SQLite file: every item that was there is seen exactly once, none twice, newest first. Items are
// settled through the ledger's real path (a hold, then a capture published on executions.settled).
import { EventEmitter, once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SettlementKind, publishSettlement, startTestLedger, type TestLedger } from "../harness";
import { SqliteLedgerStore } from "../../src/store/sqlite/sqlite-store";
import { uid, useNatsServer } from "../support";

const nats = useNatsServer();
let dir: string;
let store: SqliteLedgerStore;
let t: TestLedger;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ledger-usage-pages-"));
  store = await SqliteLedgerStore.open({ path: join(dir, "ledger.sqlite") });
  t = await startTestLedger({ natsUrl: nats().url, store });
});
afterAll(async () => {
  try {
    await t?.assertConsistent();
  } finally {
    await t?.stop();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Holds and captures one execution of `userId` whose usage item is created at `createdAt`; resolves once the ledger applied it. */
async function settle(userId: string, createdAt: Date): Promise<string> {
  const holdId = uid("att");
  await t.client.holdCredits({ holdId, userId, amountCredits: 2, ttlMs: 0, routeKey: "email.send.resend.direct" });
  await publishSettlement(t.nc, {
    holdId,
    userId,
    kind: SettlementKind.SETTLEMENT_KIND_CAPTURE,
    capturedCredits: 1,
    usage: {
      usageId: `use_${holdId}`,
      createdAt,
      productKey: "email.send",
      capabilityKey: "email.send",
      routeKey: "email.send.resend.direct",
      provider: "resend",
      networkKey: "direct",
      status: "succeeded",
      durationMs: 3,
      traceId: "0af7651916cd43dd8448eb211c80319c",
    },
  });
  await t.waitForSettlement(holdId);
  return holdId;
}

it("pages through 1,000 usage items while settlements keep arriving: each item exactly once, newest first", async () => {
  const userId = uid("user");
  await t.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 1_000_000, reason: "" });
  const base = Date.now() - 3_600_000;
  // Two items per millisecond, so pages also break between items of one instant (ordered by key).
  const seeded: string[] = [];
  for (let from = 0; from < 1_000; from += 50) {
    seeded.push(...(await Promise.all(Array.from({ length: 50 }, (_, i) => settle(userId, new Date(base + Math.floor((from + i) / 2)))))));
  }

  // The writer settles one item after another until the reader is done: every other one newer than
  // anything paged (behind the cursor), the rest inside the range still ahead of or behind it.
  const written: string[] = [];
  const progress = new EventEmitter();
  let reading = true;
  const writer = (async () => {
    for (let n = 0; reading; n++) {
      written.push(await settle(userId, new Date(n % 2 ? base + 10_000 + n : base + ((n * 37) % 500))));
      progress.emit("written");
    }
  })();

  const seen: string[] = [];
  let pages = 0;
  let cursor: string | undefined;
  let last = Infinity;
  do {
    const page = await t.client.listUsage({ userId, limit: 37, cursor });
    pages++;
    for (const item of page.items) {
      // Newest first across pages, whatever was written in between.
      expect(item.createdAt!.getTime()).toBeLessThanOrEqual(last);
      last = item.createdAt!.getTime();
      seen.push(item.holdId!);
    }
    cursor = page.nextCursor;
    // Wait for a write to land before the next page: every page boundary sees concurrent writes.
    if (cursor) await once(progress, "written");
  } while (cursor);
  reading = false;
  await writer;

  expect(pages).toBeGreaterThanOrEqual(Math.ceil(1_000 / 37));
  expect(written.length).toBeGreaterThanOrEqual(pages - 1);
  expect(new Set(seen).size).toBe(seen.length);
  const seenOnce = new Set(seen);
  expect(seeded.filter((holdId) => !seenOnce.has(holdId))).toEqual([]);
  // Nothing else than what was there or was written meanwhile.
  const known = new Set([...seeded, ...written]);
  expect(seen.filter((holdId) => !known.has(holdId))).toEqual([]);
}, 60_000);
