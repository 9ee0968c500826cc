// The reconciliation report, as operators read it from the running system: JSON on the ledger's
// internal metrics port after a paid execute (MPP), matching what the sandbox seller was paid; the
// public gateway does not serve it.
import { waitFor } from "@agentic/testing";
import { startSystem, type RunningSystem } from "./support/system";

describe("GET /admin/reconciliation on the ledger's metrics port", () => {
  let sys: RunningSystem;
  beforeAll(async () => {
    sys = await startSystem();
  }, 60_000);
  afterAll(() => sys?.stop());

  it("reports a paid route's day: paid out to the seller against charged, from the real processes", async () => {
    const json = { authorization: `Bearer ${sys.apiKey}`, "content-type": "application/json" };
    await fetch(`${sys.baseUrl}/dev/init`, { method: "POST", headers: json, body: JSON.stringify({ balanceCredits: 50 }) });
    const exec = await fetch(`${sys.baseUrl}/domains/geo/capabilities/time-current/execute`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ timezone: "Europe/Lisbon" }),
    });
    expect(exec.status).toBe(200);

    const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
    const range = `from=${day(-1)}&to=${day(1)}`; // around today, robust to midnight
    const ledger = `http://127.0.0.1:${sys.ports.ledger!.metricsPort}`;
    let row: Record<string, unknown> | undefined;
    await waitFor(
      async () => {
        const report = (await (await fetch(`${ledger}/admin/reconciliation?${range}`)).json()) as { rows: Array<Record<string, unknown>> };
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
    expect((await fetch(`${ledger}/admin/reconciliation?from=not-a-day`)).status).toBe(400);
    expect((await fetch(`${sys.baseUrl}/admin/reconciliation?${range}`)).status).toBe(404);
  });
});
