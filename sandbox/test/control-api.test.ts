// The /_control API: faults per provider (fail, 5xx, slow, timeout, count, ok), the call log, knobs.
import { SANDBOX_API_KEYS } from "../src/app";
import { postJson, useSandbox } from "./helpers/sandbox";

const sandbox = useSandbox();
const control = (path: string) => `${sandbox().url}/_control${path}`;
const email = () =>
  postJson(
    `${sandbox().url}/resend/emails`,
    { from: "hi@acme.dev", to: "a@example.com", subject: "Hi", text: "Hi" },
    { Authorization: `Bearer ${SANDBOX_API_KEYS.resend}` },
  );

describe("control API", () => {
  it("answers /healthz for process supervisors", async () => {
    const res = await fetch(`${sandbox().url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("fails the next N calls in the vendor's own error format, then recovers", async () => {
    expect((await postJson(control("/faults"), { provider: "resend", mode: "5xx", status: 502, count: 2 })).status).toBe(200);
    expect((await email()).body).toEqual({ statusCode: 502, name: "application_error", message: "Injected fault." });
    expect((await email()).status).toBe(502);
    expect((await email()).status).toBe(200);
  });

  it("injects a 4xx fail until cleared with mode ok", async () => {
    await postJson(control("/faults"), { provider: "resend", mode: "fail", status: 429 });
    expect((await email()).body).toMatchObject({ statusCode: 429, name: "rate_limit_exceeded" });
    expect((await email()).status).toBe(429);
    await postJson(control("/faults"), { provider: "resend", mode: "ok" });
    expect((await email()).status).toBe(200);
  });

  it("delays slow calls by delayMs", async () => {
    await postJson(control("/faults"), { provider: "resend", mode: "slow", delayMs: 150, count: 1 });
    const started = Date.now();
    expect((await email()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it("never answers a timed-out call; the caller's deadline ends it", async () => {
    await postJson(control("/faults"), { provider: "resend", mode: "timeout", count: 1 });
    const res = fetch(`${sandbox().url}/resend/emails`, {
      method: "POST",
      headers: { "content-type": "application/json", Authorization: `Bearer ${SANDBOX_API_KEYS.resend}` },
      body: "{}",
      signal: AbortSignal.timeout(200),
    });
    await expect(res).rejects.toThrow(/aborted|timeout/i);
    const [call] = sandbox().control.calls("resend");
    expect(call?.status).toBeUndefined();
  });

  it("lists calls per provider with method, path, body and status, and clears them", async () => {
    await email();
    await postJson(`${sandbox().url}/sendgrid/v3/mail/send`, {});
    const res = await fetch(control("/calls?provider=resend"));
    const { calls } = (await res.json()) as { calls: Array<Record<string, unknown>> };
    expect(calls).toEqual([
      expect.objectContaining({
        provider: "resend",
        method: "POST",
        path: "/emails",
        status: 200,
        body: expect.objectContaining({ subject: "Hi" }),
        paymentPresented: false,
        settled: false,
      }),
    ]);
    expect(sandbox().control.calls()).toHaveLength(2);
    await fetch(control("/calls"), { method: "DELETE" });
    expect(sandbox().control.calls()).toHaveLength(0);
  });

  it("answers 200 with a body the vendor never sends (garbage) or with `bytes` bytes (oversize)", async () => {
    await postJson(control("/faults"), { provider: "resend", mode: "garbage", count: 1 });
    expect(await email()).toMatchObject({ status: 200, body: { sandbox: "an answer this vendor never sends" } });
    await postJson(control("/faults"), { provider: "resend", mode: "oversize", bytes: 4096, count: 1 });
    const res = await fetch(`${sandbox().url}/resend/emails`, {
      method: "POST",
      headers: { "content-type": "application/json", Authorization: `Bearer ${SANDBOX_API_KEYS.resend}` },
      body: JSON.stringify({ from: "hi@acme.dev", to: "a@example.com", subject: "Hi", text: "Hi" }),
    });
    expect([res.status, (await res.text()).length]).toEqual([200, 4096]);
    expect((await email()).status).toBe(200);
    expect((await postJson(control("/faults"), { provider: "resend", mode: "oversize", bytes: 0 })).status).toBe(400);
  });

  it("rejects a fault for an unknown provider or mode with 400", async () => {
    expect((await postJson(control("/faults"), { provider: "nope", mode: "fail" })).status).toBe(400);
    expect((await postJson(control("/faults"), { provider: "resend", mode: "explode" })).status).toBe(400);
    expect((await postJson(control("/faults"), { provider: "resend", mode: "5xx", status: 404 })).status).toBe(400);
  });

  it("sets seller knobs, balances and the vendor clock, and resets them", async () => {
    const knobs = await fetch(control("/x402"), {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ version: 1, offerOverrides: { amount: "99" } }),
    });
    expect(await knobs.json()).toMatchObject({ version: 1, offerOverrides: { amount: "99" }, failNextSettles: 0 });
    const address = "0x1111111111111111111111111111111111111111";
    await fetch(control(`/balances/${address}`), {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ balanceAtomic: "42" }),
    });
    expect(await (await fetch(control(`/balances/${address}`))).json()).toEqual({ address, balanceAtomic: "42" });
    await fetch(control("/reset"), { method: "POST" });
    expect(sandbox().control.x402).toMatchObject({ version: 2, offerOverrides: {} });
  });
});
