// Every running service exposes its RED series on /metrics once traffic has passed through it,
// and the ledger reports its JetStream consumer lag.
import { startSystem, type RunningSystem } from "./support/system";

describe("/metrics of every service after traffic", () => {
  let sys: RunningSystem;
  beforeAll(async () => {
    sys = await startSystem();
  }, 60_000);
  afterAll(() => sys?.stop());

  const metricsOf = async (service: string) => {
    const port = sys.ports[service]!.metricsPort ?? sys.ports[service]!.port;
    return (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  };
  const rpcCount = (text: string, method: string) =>
    Number(
      new RegExp(`rpc_server_duration_seconds_count\\{[^}]*rpc_method="${method}",rpc_grpc_status_code="0"\\} (\\d+)`).exec(text)?.[1] ?? 0,
    );

  it("shows gateway, catalog, ledger, router and executor series", async () => {
    const auth = { authorization: `Bearer ${sys.apiKey}` };
    expect((await fetch(`${sys.baseUrl}/domains`)).status).toBe(200);
    expect((await fetch(`${sys.baseUrl}/wallet`, { headers: auth })).status).toBe(200);
    const rec = await fetch(`${sys.baseUrl}/domains/email/capabilities/send/recommend`, { method: "POST", headers: auth });
    expect(rec.status).toBe(200);
    const json = { ...auth, "content-type": "application/json" };
    await fetch(`${sys.baseUrl}/dev/init`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ userId: "dev-user", balanceCredits: 50 }),
    });
    const exec = await fetch(`${sys.baseUrl}/domains/email/capabilities/send/execute`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ to: "ada@example.com", subject: "metrics", text: "hi", provider: "resend" }),
    });
    expect(exec.status).toBe(200);

    expect(await metricsOf("gateway")).toMatch(
      /http_server_request_duration_seconds_count\{http_request_method="GET",http_route="\/api\/agentic-api\/domains",http_response_status_code="200"\} [1-9]/,
    );
    const catalog = await metricsOf("catalog");
    expect(rpcCount(catalog, "ListDomains")).toBeGreaterThan(0);
    // The caches' version polls (router, executor, gateway) ask for the version alone.
    expect(rpcCount(catalog, "GetCatalogVersion")).toBeGreaterThan(0);
    const ledger = await metricsOf("ledger");
    expect(rpcCount(ledger, "AuthenticateApiKey")).toBeGreaterThan(0);
    expect(rpcCount(ledger, "GetWallet")).toBeGreaterThan(0);
    expect(ledger).toMatch(/nats_consumer_pending_messages\{stream="EXECUTIONS",consumer="ledger"\} \d+/);
    const router = await metricsOf("router");
    expect(rpcCount(router, "Recommend")).toBeGreaterThan(0);
    // The recommend read its wallet through the router's cache, live once it hears the ledger's announcements.
    expect(router).toMatch(/router_wallet_reads_total\{result="(miss|bypassed)"\} [1-9]/);
    expect(router).toMatch(/router_wallet_cache_live 1/);
    const executor = await metricsOf("executor");
    expect(rpcCount(executor, "Execute")).toBeGreaterThan(0);
    expect(executor).toMatch(/executor_provider_attempts_total\{route_key="email\.send\.resend",provider="resend",outcome="ok"\} 1/);
    expect(executor).toMatch(/executor_credits_charged_total\{route_key="email\.send\.resend"\} \d+/);
    for (const service of ["gateway", "catalog", "ledger", "router", "executor"])
      expect(await metricsOf(service)).toMatch(/process_resident_memory_bytes \d+/);
  });
});
