// `npm start` announces the system (its banner, and the ready file tests read) only when it is ready
// end to end: at that moment every gRPC service already answers SERVING (the executor only once its
// catalog, ledger and router answer), the gateway's /readyz is 200 "ok" with every backend ok, a
// first caller's catalog read and recommend are answered 200 at once, with no retry, and the warm-up
// the launcher ran before announcing (catalog pages, recommends, executes it refuses) cost nothing.
import { createHealthChecker } from "@agentic/platform";
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

  it("its warm-up before the announcement called no provider and held or charged nothing", async () => {
    const calls = (await (await fetch(`http://127.0.0.1:${sys.ports.sandbox!.port}/_control/calls`)).json()) as { calls: unknown[] };
    expect(calls.calls).toEqual([]);
    const authed = { headers: { authorization: `Bearer ${sys.apiKey}` } };
    expect(await (await fetch(`${sys.baseUrl}/wallet`, authed)).json()).toMatchObject({ balanceCredits: 0 });
    expect(await (await fetch(`${sys.baseUrl}/usage`, authed)).json()).toMatchObject({ items: [] });
    // Every execute of the warm-up was refused before a hold: for its body (400), or as a capability that cannot run
    // (409, gated); none reached the wallet (402 here, or 200 with credits).
    const metrics = await (await fetch(`${sys.origin}/metrics`)).text();
    const executes = metrics
      .split("\n")
      .filter((line) => line.startsWith("http_server_request_duration_seconds_count{") && line.includes("/execute"))
      .map((line) => /http_response_status_code="(\d+)"/.exec(line)?.[1]);
    expect(executes.length).toBeGreaterThan(0);
    expect(executes.filter((status) => status !== "400" && status !== "409")).toEqual([]);
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
