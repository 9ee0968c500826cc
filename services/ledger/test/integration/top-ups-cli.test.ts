// `npm run ledger -- top-ups` against a running ledger, as a child process: it lists the top-ups left
// pending (no evidence yet that the transfer reached us) with what to look for on chain, and resolves
// each once, with a reason: credited (money in, once) or failed (nothing).
import { topUpIdOf, type TopUpRecord } from "../../src/domain/top-up";
import { runScript, uid, useNatsServer, useTestLedger } from "../support";

const cli = (addr: string, ...args: string[]) => runScript("ledger.mjs", addr, args);

const nats = useNatsServer();
const ledger = useTestLedger(nats);

function pendingRecord(userId: string, amountCredits: number): TopUpRecord {
  const identity = {
    network: "eip155:84532",
    asset: "0xasset",
    payer: "0x00000000000000000000000000000000000000aa",
    nonce: `0x${uid("n")}`,
  };
  const at = new Date(Date.now() - 60_000);
  return {
    topUpId: topUpIdOf(identity),
    userId,
    ...identity,
    payTo: "0x2Fe5b450cd7Ec8347d9d9D6D726b4cfe1d46D5f5",
    amountAtomic: String(amountCredits * 1000),
    amountCredits,
    state: "pending",
    createdAt: at,
    attemptedAt: at,
    attempts: 2,
    requirements: "{}",
    payload: "{}",
  };
}

describe("npm run ledger -- top-ups", () => {
  it("lists pending top-ups, credits one once with the operator's reason and transaction, and fails another", async () => {
    const t = ledger();
    const userId = uid("user");
    const [credit, refuse] = [pendingRecord(userId, 700), pendingRecord(userId, 300)];
    for (const record of [credit, refuse]) await t.store.startTopUp({ record, staleBefore: new Date(0), now: record.createdAt });

    const listed = await cli(t.address, "top-ups");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("Pending top-ups (2)");
    expect(listed.stdout).toContain(`${credit.topUpId}  user ${userId}  700 credits`);
    expect(listed.stdout).toContain(`nonce ${credit.nonce}`);
    const json = await cli(t.address, "top-ups", "--json");
    expect(
      JSON.parse(json.stdout)
        .map((p: { topUpId: string }) => p.topUpId)
        .sort(),
    ).toEqual([credit.topUpId, refuse.topUpId].sort());

    const resolved = await cli(
      t.address,
      "top-ups",
      "resolve",
      "--id",
      credit.topUpId,
      "--credit",
      "--reason",
      "transfer found on chain",
      "--transaction",
      "0xfeed",
      "--by",
      "ada",
    );
    expect(resolved).toMatchObject({ code: 0, stdout: expect.stringContaining(`Resolved ${credit.topUpId}: credited, 700 credits added`) });
    const again = await cli(t.address, "top-ups", "resolve", "--id", credit.topUpId, "--fail", "--reason", "second thoughts");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("TOP_UP_NOT_PENDING");
    const failed = await cli(t.address, "top-ups", "resolve", "--id", refuse.topUpId, "--fail", "--reason", "no transfer on chain");
    expect(failed).toMatchObject({ code: 0, stdout: expect.stringContaining("failed, nothing credited") });

    expect((await t.client.getWallet({ userId })).wallet).toMatchObject({ balanceCredits: 700 });
    expect(await t.store.getTopUp(credit.topUpId)).toMatchObject({ state: "credited", transaction: "0xfeed" });
    expect(JSON.parse((await t.store.getTopUp(credit.topUpId))!.settlement!)).toMatchObject({
      resolvedBy: { operator: "admin", operatorName: "ada" },
      reason: "transfer found on chain",
    });
    expect(await t.store.getTopUp(refuse.topUpId)).toMatchObject({ state: "failed", failureReason: "operator: no transfer on chain" });
    expect((await cli(t.address, "top-ups")).stdout).toContain("No pending top-ups.");
  });

  it("refuses a resolve without an outcome or a reason, as bad usage", async () => {
    const t = ledger();
    const res = await cli(t.address, "top-ups", "resolve", "--id", "tu_x", "--credit");
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("needs --id, --reason and one of --credit or --fail");
  });
});
