// Overview: balance and reserved credits, spend per day for 30 days and per capability, route and agent,
// each spend policy with what is left and when it resets, the latest executions. Refreshes every 5 s.
import { useApi, MIN_REFRESH_MS } from "../use-api";
import type { Overview as OverviewAnswer } from "../types";
import { credits, usd, when } from "../format";
import { SpendChart } from "../spend-chart";
import { ErrorNote, Loading, SumTable } from "../widgets";
import { PolicyTable } from "./policies";
import { UsageTable } from "./usage-table";

const DAYS = 30;

export function Overview() {
  // One request: GET /overview answers the wallet, the spend the ledger summed (the last 30 UTC days) and the latest charges.
  const overview = useApi<OverviewAnswer>("/overview", MIN_REFRESH_MS);
  const { wallet, spend: summary, latestCharges } = overview.answer?.body ?? {};
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      {overview.error && <ErrorNote error={overview.error} />}
      {wallet && summary ? (
        <div class="cards">
          <div class="card">
            <h2>Balance</h2>
            <p class="figure" data-testid="balance">
              {credits(wallet.balanceCredits)}
            </p>
            <p>{usd(wallet.balanceCredits)}</p>
          </div>
          <div class="card">
            <h2>Reserved</h2>
            <p class="figure" data-testid="reserved">
              {credits(wallet.reservedCredits)}
            </p>
            <p>held for executions in flight</p>
          </div>
          <div class="card">
            <h2>Spent, last {DAYS} days</h2>
            <p class="figure" data-testid="spent-30d">
              {credits(summary.totalCredits)}
            </p>
            <p>{summary.count} executions</p>
          </div>
        </div>
      ) : (
        !overview.error && <Loading />
      )}
      {summary && (
        <>
          <h2>Spend per day</h2>
          <SpendChart byDay={summary.byDay} />
          <div class="grid3">
            <SumTable title="Per capability" rows={summary.byCapability.map((r) => ({ name: r.capabilityKey, ...r }))} />
            <SumTable title="Per route" rows={summary.byRoute.map((r) => ({ name: r.routeKey, ...r }))} />
            <SumTable title="Per agent" rows={summary.byAgent.map((r) => ({ name: r.agentName ?? "(no agent)", ...r }))} />
          </div>
        </>
      )}
      {wallet && (
        <>
          <h2>Spend policies</h2>
          <PolicyTable policies={wallet.spendPolicies} />
        </>
      )}
      {latestCharges && (
        <>
          <h2>Latest executions</h2>
          <UsageTable items={latestCharges.items} caption="The latest executions" />
        </>
      )}
      <p class="muted">Updated {when(new Date().toISOString())}</p>
    </section>
  );
}
