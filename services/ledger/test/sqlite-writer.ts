// Child process of the SIGKILL test (src/store/store.test.ts): writes to the SQLite store at
// argv[2] until it is killed, and prints one line per write only after the write committed, so the
// parent knows every write that must survive. Lines: `grant <grantId>`, `hold <holdId>`,
// `capture <holdId>`, `release <holdId>`.
// Run: node --require ./test/register-ts.cjs ./test/sqlite-writer.ts <database path>
import { SqliteLedgerStore } from "../src/store/sqlite/sqlite-store";

const USERS = ["u1", "u2"];

async function main(path: string): Promise<void> {
  const store = await SqliteLedgerStore.open({ path });
  // On Linux, writes to a pipe are synchronous: a printed line has left this process.
  const report = (line: string) => process.stdout.write(`${line}\n`);
  for (const userId of USERS) {
    await store.grant({ grantId: `grant_${userId}`, userId, amountCredits: 1_000_000, reason: "crash test", now: new Date() });
    report(`grant grant_${userId}`);
  }
  for (let i = 0; ; i++) {
    const userId = USERS[i % USERS.length]!;
    const holdId = `hold_${i}`;
    const now = new Date();
    await store.hold({ holdId, userId, amountCredits: 10 + (i % 7), routeKey: "r", expiresAt: new Date(now.getTime() + 60_000), now });
    report(`hold ${holdId}`);
    const kind = i % 3 === 0 ? "release" : "capture";
    await store.settleHold({ holdId, userId, kind, capturedCredits: i % 10, now: new Date() });
    report(`${kind} ${holdId}`);
  }
}

main(process.argv[2]!).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
