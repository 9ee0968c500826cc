// `npm run ledger -- credits grant|refund|adjust` (scripts/ledger.mjs) against a running ledger, as a
// child process signed as admin: each movement is on the record with who and why, a retry with the same
// reference is one movement, and refusals are clear.
import { runScript, uid, useNatsServer, useTestLedger } from "../support";

const cli = (addr: string, ...args: string[]) => runScript("ledger.mjs", addr, args);

const nats = useNatsServer();
const ledger = useTestLedger(nats);

describe("npm run ledger -- credits", () => {
  it("grants, refunds and adjusts on the record; a retried grant is one grant; reconcile counts them", async () => {
    const t = ledger();
    const userId = uid("user");
    const reference = uid("ticket");
    const grant = [
      "credits",
      "grant",
      "--user",
      userId,
      "--amount",
      "5000",
      "--reason",
      "welcome credit",
      "--reference",
      reference,
      "--by",
      "ada",
    ];
    const first = await cli(t.address, ...grant);
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(first.stdout).toContain(`Recorded: grant of 5000 credits for ${userId}, reference ${reference}`);
    expect(first.stdout).toContain("by admin (ada): welcome credit");
    expect(first.stdout).toContain("5000 credits available");
    const retry = await cli(t.address, ...grant);
    expect(retry).toMatchObject({ code: 0, stdout: expect.stringContaining("Already recorded (same reference; nothing moved again)") });

    const refund = await cli(
      t.address,
      "credits",
      "refund",
      "--user",
      userId,
      "--amount",
      "250",
      "--reason",
      "provider outage",
      "--reference",
      uid("r"),
      "--json",
    );
    expect(JSON.parse(refund.stdout)).toMatchObject({
      replayed: false,
      wallet: { balanceCredits: 5_250 },
      entry: { kind: "refund", amountCredits: 250, operator: "admin" },
    });
    const adjust = await cli(
      t.address,
      "credits",
      "adjust",
      "--user",
      userId,
      "--amount=-1250",
      "--reason",
      "double grant",
      "--reference",
      uid("a"),
      "--by",
      "bob",
      "--json",
    );
    expect(JSON.parse(adjust.stdout)).toMatchObject({
      wallet: { balanceCredits: 4_000 },
      entry: { kind: "adjustment", amountCredits: -1_250, operatorName: "bob" },
    });

    const journal = await t.client.listJournal({ userId });
    expect(journal.entries.map((e) => [e.kind, e.amountCredits, e.operatorName])).toEqual([
      ["grant", 5_000, "ada"],
      ["refund", 250, expect.any(String)], // no --by: the login name
      ["adjustment", -1_250, "bob"],
    ]);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const report = await cli(t.address, "reconcile", "--from", day(-1), "--to", day(1));
    expect(report.stdout).toContain("Credits granted, refunded and adjusted:");
    expect(report.stdout).toMatch(/ adjustment {2}1 {2}\+0 credits {2}-1250 credits/);
  });

  it("refuses what the ledger refuses, and explains usage mistakes", async () => {
    const t = ledger();
    const userId = uid("user");
    const base = ["--user", userId, "--reason", "why", "--reference", uid("ref")];
    expect(await cli(t.address, "credits", "refund", ...base, "--amount=-1")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("BALANCE_TOO_LOW"),
    });
    expect(await cli(t.address, "credits", "grant", ...base, "--amount", "0")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("INVALID_ARGUMENT"),
    });
    expect(await cli(t.address, "credits", "grant", "--user", userId, "--amount", "5", "--reference", uid("ref"))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("needs --user, --amount, --reason and --reference"),
    });
    expect(await cli(t.address, "credits", "gift", ...base, "--amount", "5")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("grant, refund or adjust"),
    });
    expect(await cli(t.address, "credits", "grant", ...base, "--amount", "5.5")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("whole number of credits"),
    });
    // A negative amount must be attached (--amount=-5): a detached one reads as an option.
    expect(await cli(t.address, "credits", "adjust", ...base, "--amount", "-5")).toMatchObject({ code: 2 });
    await expect(t.client.getWallet({ userId })).resolves.toMatchObject({ wallet: { balanceCredits: 0 } });
  });
});
