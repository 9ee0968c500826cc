// Overview: balance and reserved credits, spend per day for 30 days and per capability, route and agent,
// each spend policy with what is left and when it resets, the latest executions. Refreshes every 5 s.
import { useApi, MIN_REFRESH_MS } from "../use-api";
import type { SpendSummary, UsagePage, Wallet } from "../types";
import { credits, usd, when } from "../format";
import { SpendChart } from "../spend-chart";
import { ErrorNote, Loading, SumTable } from "../widgets";
import { PolicyTable } from "./policies";
import { UsageTable } from "./usage-table";

const DAYS = 30;

export function Overview() {
  // Three resources, one request each: the wallet, the spend summed by the ledger (the last 30 UTC days), the latest executions.
  const wallet = useApi<Wallet>("/wallet", MIN_REFRESH_MS);
  const sums = useApi<SpendSummary>("/usage/summary", MIN_REFRESH_MS);
  const usage = useApi<UsagePage>("/usage?limit=10&kind=charge", MIN_REFRESH_MS);
  const summary = sums.answer?.body;
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      {wallet.error && <ErrorNote error={wallet.error} />}
      {wallet.answer ? (
        <div class="cards">
          <div class="card">
            <h2>Balance</h2>
            <p class="figure" data-testid="balance">
              {credits(wallet.answer.body.balanceCredits)}
            </p>
            <p>{usd(wallet.answer.body.balanceCredits)}</p>
          </div>
          <div class="card">
            <h2>Reserved</h2>
            <p class="figure" data-testid="reserved">
              {credits(wallet.answer.body.reservedCredits)}
            </p>
            <p>held for executions in flight</p>
          </div>
          <div class="card">
            <h2>Spent, last {DAYS} days</h2>
            <p class="figure" data-testid="spent-30d">
              {summary ? credits(summary.totalCredits) : "…"}
            </p>
            <p>{summary ? `${summary.count} executions` : ""}</p>
          </div>
        </div>
      ) : (
        !wallet.error && <Loading />
      )}
      {sums.error && <ErrorNote error={sums.error} />}
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
      {wallet.answer && (
        <>
          <h2>Spend policies</h2>
          <PolicyTable policies={wallet.answer.body.spendPolicies} />
        </>
      )}
      {usage.error && <ErrorNote error={usage.error} />}
      {usage.answer && (
        <>
          <h2>Latest executions</h2>
          <UsageTable items={usage.answer.body.items} caption="The latest executions" />
        </>
      )}
      <p class="muted">Updated {when(new Date().toISOString())}</p>
    </section>
  );
}
