// scripts/ledger.mjs against a running ledger, as a child process: the reconciliation and the
// payments it prints are the ledger's books; bad ranges and an unreachable ledger are clear errors.
import { freePort } from "@agentic/testing";
import { SettlementKind, publishSettlement } from "../harness";
import { runScript, uid, useNatsServer, useTestLedger } from "../support";

const cli = (addr: string, ...args: string[]) => runScript("ledger.mjs", addr, args);

const nats = useNatsServer();
const ledger = useTestLedger(nats);
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe("npm run ledger", () => {
  it("reconcile prints paid out against charged per route and day, and every platform loss; payments lists each payment", async () => {
    const t = ledger();
    const userId = uid("user");
    await t.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 100, reason: "" });
    const payment = {
      rail: "x402",
      network: "eip155:84532",
      asset: "0xa",
      amountAtomic: "20000",
      amountMicroUsd: 20_000,
      payTo: "0xseller",
      payer: "0xus",
      reference: "0xtx",
      settlement: "settled",
    };
    const [served, failed] = [uid("att"), uid("att")];
    for (const holdId of [served, failed])
      await t.client.holdCredits({ holdId, userId, amountCredits: 25, routeKey: "enrichment.people.search.apollo.agentcash", ttlMs: 0 });
    await publishSettlement(t.nc, {
      holdId: served,
      userId,
      kind: SettlementKind.SETTLEMENT_KIND_CAPTURE,
      capturedCredits: 25,
      payments: [payment],
    });
    await publishSettlement(t.nc, {
      holdId: failed,
      userId,
      kind: SettlementKind.SETTLEMENT_KIND_RELEASE,
      usage: { errorCode: "PROVIDER_ERROR" },
      payments: [{ ...payment, reference: "0xtx2" }],
    });
    await Promise.all([t.waitForSettlement(served), t.waitForSettlement(failed)]);

    const text = await cli(t.address, "reconcile", "--from", day(-1), "--to", day(1));
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /enrichment\.people\.search\.apollo\.agentcash {2}paid \$0\.040000 \(2\) {2}charged \$0\.025000 \(25 credits, 1\) {2}margin -\$0\.015000 {2}lost \$0\.020000/,
    );
    expect(text.stdout).toContain(`paid_attempt_released  $0.020000`);
    expect(text.stdout).toContain(`payment ${failed}/0`);

    const json = JSON.parse((await cli(t.address, "reconcile", "--from", day(-1), "--to", day(1), "--json")).stdout);
    expect(json.totals).toMatchObject({
      paidOutMicroUsd: 40_000,
      chargedCredits: 25,
      chargedMicroUsd: 25_000,
      lostMicroUsd: 20_000,
      marginMicroUsd: -15_000,
    });
    expect(json.losses).toMatchObject([
      { paymentId: `${failed}/0`, reason: "paid_attempt_released", reference: "0xtx2", errorCode: "PROVIDER_ERROR" },
    ]);

    const payments = JSON.parse((await cli(t.address, "payments", "--from", day(-1), "--to", day(1), "--json")).stdout);
    expect(payments.map((p: { paymentId: string; reference: string }) => [p.paymentId, p.reference])).toEqual([
      [`${served}/0`, "0xtx"],
      [`${failed}/0`, "0xtx2"],
    ]);
  });

  it("explains usage mistakes, the ledger's refusals and an unreachable ledger", async () => {
    const t = ledger();
    await expect(cli(t.address, "reconcile")).resolves.toMatchObject({ code: 2, stderr: expect.stringContaining("needs --from") });
    await expect(cli(t.address, "audit", "--from", day(0))).resolves.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown command "audit"'),
    });
    await expect(cli(t.address, "reconcile", "--from", "2026-02-30")).resolves.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("INVALID_ARGUMENT"),
    });
    const nobody = `127.0.0.1:${await freePort()}`;
    await expect(cli(nobody, "payments", "--from", day(0))).resolves.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`not reachable at ${nobody}`),
    });
  });
});
