// The reconciliation report, as operators read it from the running system: with the admin identity
// (`npm run ledger -- reconcile`, the admin RPC GetReconciliation) after a paid execute (MPP),
// matching what the sandbox seller was paid. It lists every loss with user ids, so nothing else
// serves it: an identity the ledger does not trust is refused, and neither the ledger's metrics port
// (anything that scrapes metrics reaches it) nor the public gateway has it.
import { generateIdentityKeys } from "@agentic/platform";
import { waitFor } from "@agentic/testing";
import { adminCli, reconciliation } from "./support/admin-cli";
import { startSystem, type RunningSystem } from "./support/system";

describe("the reconciliation report", () => {
  let sys: RunningSystem;
  beforeAll(async () => {
    sys = await startSystem();
  }, 60_000);
  afterAll(() => sys?.stop());

  const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

  it("reports a paid route's day to the admin: paid out to the seller against charged, from the real processes", async () => {
    const json = { authorization: `Bearer ${sys.apiKey}`, "content-type": "application/json" };
    await fetch(`${sys.baseUrl}/dev/init`, { method: "POST", headers: json, body: JSON.stringify({ balanceCredits: 50 }) });
    const exec = await fetch(`${sys.baseUrl}/domains/geo/capabilities/time-current/execute`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ timezone: "Europe/Lisbon" }),
    });
    expect(exec.status).toBe(200);

    let row: Record<string, unknown> | undefined;
    await waitFor(
      async () => {
        const report = await reconciliation(sys, day(-1), day(1)); // around today, robust to midnight
        row = report.rows.find((r) => r.routeKey === "geo.time.current.timeapi.mpp" && r.captures === 1);
        return row !== undefined;
      },
      { timeoutMs: 10_000, what: "the capture and its payment on the ledger's books" },
    );
    // The sandbox's time seller asks 1000 atomic USDC ($0.001) for the 2 credits ($0.002) charged.
    expect(row).toMatchObject({
      paidOutMicroUsd: 1_000,
      payments: 1,
      chargedCredits: 2,
      chargedMicroUsd: 2_000,
      marginMicroUsd: 1_000,
      lostMicroUsd: 0,
    });
  });

  it("is refused without the admin identity, and served on no HTTP port", async () => {
    const stranger = await adminCli(sys, "ledger", ["reconcile", "--from", day(-1), "--to", day(1), "--json"], {
      adminIdentityKey: generateIdentityKeys().privateKey,
    });
    expect({ code: stranger.code, stdout: stranger.stdout }).toEqual({ code: 1, stdout: "" });
    expect(stranger.stderr).toMatch(/SERVICE_IDENTITY_INVALID/);

    const range = `from=${day(-1)}&to=${day(1)}`;
    expect((await fetch(`http://127.0.0.1:${sys.ports.ledger!.metricsPort}/admin/reconciliation?${range}`)).status).toBe(404);
    expect((await fetch(`${sys.baseUrl}/admin/reconciliation?${range}`)).status).toBe(404);
  });
});
