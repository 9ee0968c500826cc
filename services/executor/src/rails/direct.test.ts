import { createServer } from "node:http";
import { freePort } from "@agentic/testing";
import { SANDBOX_API_KEYS, startSandbox, type RunningSandbox } from "@agentic/sandbox";
import { DirectRail } from "./direct";
import { RailError } from "../domain/rail-port";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.stop());
beforeEach(() => sandbox.control.reset());

const rail = new DirectRail();
const signal = () => AbortSignal.timeout(5000);
const mail = {
  personalizations: [{ to: [{ email: "a@example.com" }] }],
  from: { email: "hi@acme.dev" },
  subject: "Hi",
  content: [{ type: "text/plain", value: "Hi" }],
};

describe("DirectRail", () => {
  it("sends the request as built and returns status, lowercased headers and body, billed to our key", async () => {
    const res = await rail.send(
      {
        method: "POST",
        url: `${sandbox.baseUrls.sendgrid.direct}/v3/mail/send`,
        headers: { Authorization: `Bearer ${SANDBOX_API_KEYS.sendgrid}` },
        body: mail,
      },
      { signal: signal() },
    );
    expect(res.status).toBe(202);
    expect(res.headers["x-message-id"]).toMatch(/^\S{22}$/);
    expect(res.body).toBeUndefined();
    expect(res.payment).toEqual({ rail: "api_key" });
    const [call] = sandbox.control.calls("sendgrid");
    expect(call).toMatchObject({ headers: expect.objectContaining({ "content-type": "application/json" }), body: mail });
  });

  it("returns vendor errors as responses with the parsed error body", async () => {
    const res = await rail.send(
      { method: "POST", url: `${sandbox.baseUrls.resend.direct}/emails`, headers: { Authorization: "Bearer re_wrong" }, body: {} },
      { signal: signal() },
    );
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ name: "invalid_api_key" });
  });

  it("treats a 402 as a vendor answer, never as a payment to make", async () => {
    const res = await rail.send(
      { method: "POST", url: `${sandbox.baseUrls.exa.mpp}/answer`, headers: {}, body: { query: "q" } },
      { signal: signal() },
    );
    expect(res.status).toBe(402);
    expect(sandbox.control.calls("exa")).toHaveLength(1);
  });

  it("maps a refused connection to RailError network", async () => {
    const port = await freePort();
    const err = await rail
      .send({ method: "GET", url: `http://127.0.0.1:${port}/x`, headers: {} }, { signal: signal() })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RailError);
    expect(err).toMatchObject({ kind: "network", reason: "connection_failed", details: { code: "ECONNREFUSED" } });
  });

  it("reads an answer up to the byte limit, declared or streamed, and refuses a larger one with its status", async () => {
    const email = (maxResponseBytes?: number) =>
      rail.send(
        {
          method: "POST",
          url: `${sandbox.baseUrls.resend.direct}/emails`,
          headers: { Authorization: `Bearer ${SANDBOX_API_KEYS.resend}` },
          body: { from: "a@acme.dev", to: "b@example.com", subject: "s", text: "t" },
        },
        { signal: signal(), ...(maxResponseBytes ? { maxResponseBytes } : {}) },
      );
    sandbox.control.setFault({ provider: "resend", mode: "oversize", bytes: 5_000, count: 2 });
    expect((await email(5_000)).status).toBe(200);
    expect(await email(4_999).catch((e: unknown) => e)).toMatchObject({
      kind: "invalid_response",
      reason: "response_too_large",
      opts: { response: { status: 200 } },
    });
    // A chunked answer without Content-Length is cut off as soon as it passes the limit.
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = "y".repeat(1_000);
      let sent = 0;
      const more = () => {
        if (res.destroyed || sent++ >= 1_000) return res.end();
        res.write(chunk, more);
      };
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/stream`;
      const err = await rail
        .send({ method: "GET", url, headers: {} }, { signal: signal(), maxResponseBytes: 10_500 })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: "invalid_response", reason: "response_too_large", details: { limitBytes: 10_500 } });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("maps the caller's deadline to RailError timeout", async () => {
    sandbox.control.setFault({ provider: "resend", mode: "timeout" });
    const err = await rail
      .send(
        {
          method: "POST",
          url: `${sandbox.baseUrls.resend.direct}/emails`,
          headers: { Authorization: `Bearer ${SANDBOX_API_KEYS.resend}` },
          body: {},
        },
        { signal: AbortSignal.timeout(200) },
      )
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "timeout", reason: "deadline_exceeded" });
  });

  it("sends an Accept and a User-Agent unless the route sets them, a text body as text/plain, and joins repeated answer headers", async () => {
    const seen: Record<string, string | string[] | undefined>[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      res.setHeader("x-repeated", ["a", "b"]);
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/text`;
      const res = await rail.send({ method: "POST", url, headers: {}, body: "plain words" }, { signal: signal() });
      expect(res).toMatchObject({ status: 200, body: "ok", headers: { "x-repeated": "a, b" } });
      await rail.send({ method: "GET", url, headers: { "User-Agent": "vendor-sdk/1", Accept: "application/json" } }, { signal: signal() });
      expect(seen[0]).toMatchObject({
        accept: "*/*",
        "user-agent": "agentic-api-executor",
        "content-type": "text/plain;charset=UTF-8",
        "content-length": "11",
      });
      expect(seen[1]).toMatchObject({ accept: "application/json", "user-agent": "vendor-sdk/1" });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
