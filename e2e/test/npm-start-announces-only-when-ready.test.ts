// `npm start` announces the system (its banner, and the ready file tests read) only when it is ready
// end to end: at that moment every gRPC service already answers SERVING (the executor only once its
// catalog, ledger and router answer), the gateway's /readyz is 200 "ok" with every backend ok, and a
// first caller's catalog read and recommend are answered 200 at once, with no retry.
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
