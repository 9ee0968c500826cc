// `npm start` announces the system (its banner, and the ready file tests read) only when it is ready
// end to end: at that moment every gRPC service already answers SERVING (the executor only once its
// catalog, ledger and router answer), the gateway's /readyz is 200 "ok" with every backend ok, a
// first caller's catalog read and recommend are answered 200 at once, with no retry, and the warm-up
// the launcher ran before announcing cost the developer nothing: its catalog reads, recommends and
// refused executes are free, and its paid executes (one route per rail) ran on an account of its own.
import { createHealthChecker } from "@agentic/platform";
import { waitFor } from "@agentic/testing";
import { reconciliation } from "./support/admin-cli";
import { sandboxControl } from "./support/sandbox-control";
import { startSystem, type RunningSystem } from "./support/system";

let sys: RunningSystem;
beforeAll(async () => {
  sys = await startSystem({ RATE_LIMIT_RPS: "100000", RATE_LIMIT_BURST: "100000" });
}, 90_000);
afterAll(() => sys?.stop());

describe("npm start, the moment it announces the system", () => {
  it("every gRPC service answers SERVING", async () => {
    const states: Record<string, boolean> = {};
    for (const name of ["catalog", "ledger", "router", "executor"]) {
      const checker = createHealthChecker(`127.0.0.1:${sys.ports[name]!.port}`);
      states[name] = await checker.check(5_000);
      checker.close();
    }
    expect(states).toEqual({ catalog: true, ledger: true, router: true, executor: true });
  });

  it("the gateway's /readyz is 200 ok with every backend ok", async () => {
    const res = await fetch(`${sys.origin}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      checks: { catalog: "ok", ledger: "ok", router: "ok", executor: "ok" },
      catalog: "live",
    });
  });

  it("a first caller's catalog read and recommend answer 200 with no retry", async () => {
    const domains = await fetch(`${sys.baseUrl}/domains`);
    expect(domains.status).toBe(200);
    const recommend = await fetch(`${sys.baseUrl}/domains/email/capabilities/send/recommend`, {
      method: "POST",
      headers: { authorization: `Bearer ${sys.apiKey}`, "content-type": "application/json" },
      body: "{}",
    });
    expect({ status: recommend.status, body: recommend.status === 200 ? "" : await recommend.text() }).toEqual({ status: 200, body: "" });
  });

  it("its warm-up charged the developer nothing: its paid executes ran on its own account, one route per rail, on the books", async () => {
    const authed = { headers: { authorization: `Bearer ${sys.apiKey}` } };
    expect(await (await fetch(`${sys.baseUrl}/wallet`, authed)).json()).toMatchObject({ balanceCredits: 0 });
    expect(await (await fetch(`${sys.baseUrl}/usage`, authed)).json()).toMatchObject({ items: [] });

    // The provider sandbox heard from the warm-up's three vendors only, one on each rail.
    const { calls } = (await (await sandboxControl(sys, "/calls")).json()) as { calls: Array<{ provider: string; network: string }> };
    expect([...new Set(calls.map((c) => `${c.provider} over ${c.network}`))].sort()).toEqual([
      "apollo over agentcash",
      "coingecko over direct",
      "googlemaps over mpp",
    ]);

    // Every paid execute is on the ledger's books: captured, each vendor payment recorded, nothing lost.
    const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
    const executes = await executeStatuses();
    const served = executes.filter((status) => status === "200").length;
    expect(served).toBeGreaterThan(0);
    let rows: Array<Record<string, unknown>> = [];
    await waitFor(
      async () => {
        rows = (await reconciliation(sys, day(-1), day(1))).rows;
        return rows.reduce((sum, r) => sum + Number(r.captures), 0) === served;
      },
      { what: "the warm-up's captures on the ledger's books" },
    );
    expect(rows.map((r) => r.routeKey).sort()).toEqual([
      "enrichment.company.search.apollo.agentcash",
      "finance.crypto.price.coingecko",
      "geo.places.search.googlemaps.mpp",
    ]);
    for (const row of rows) {
      const paysVendor = row.routeKey !== "finance.crypto.price.coingecko";
      expect(row).toMatchObject({ payments: paysVendor ? row.captures : 0, lostMicroUsd: 0, atRiskMicroUsd: 0 });
    }
    // Every other execute of the warm-up was refused before a hold: for its body (400), or as a capability that
    // cannot run (409, gated).
    expect(executes.filter((status) => !["200", "400", "409"].includes(status!))).toEqual([]);
  });

  it("a first execute answers 200", async () => {
    const funded = await fetch(`${sys.baseUrl}/dev/init`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ balanceCredits: 100 }),
    });
    expect(funded.status).toBe(200);
    const res = await fetch(`${sys.baseUrl}/domains/email/capabilities/send/execute`, {
      method: "POST",
      headers: { authorization: `Bearer ${sys.apiKey}`, "content-type": "application/json", "idempotency-key": "first-execute" },
      body: JSON.stringify({ to: "ada@example.com", subject: "First", text: "hello" }),
    });
    expect({ status: res.status, body: res.status === 200 ? "" : await res.text() }).toEqual({ status: 200, body: "" });
  });
});

/** The status of every execute the gateway has answered, one entry per answer, from its request-duration histogram. */
async function executeStatuses(): Promise<Array<string | undefined>> {
  const metrics = await (await fetch(`${sys.origin}/metrics`)).text();
  return metrics
    .split("\n")
    .filter((line) => line.startsWith("http_server_request_duration_seconds_count{") && line.includes("/execute"))
    .flatMap((line) => Array<string | undefined>(Number(line.split(" ").pop())).fill(/http_response_status_code="(\d+)"/.exec(line)?.[1]));
}
