// What SREs read: /metrics shows RED series per route after traffic, cached catalog reads included;
// the access log (ACCESS_LOG=all) has one JSON line per request with its route and status, never the
// API key; by default (problems) only server errors and the like get a line.
import pino from "pino";
import { Writable } from "node:stream";
import { waitFor } from "@agentic/testing";
import { startBackedSystem, TEST_KEY, type BackedSystem } from "./backed-system";
import { startTestGateway, type TestGateway } from "./harness";

/** A pino logger into `lines` (parsed) and `raw` (as written: JSON.parse would hide a repeated key). */
function capture(lines: any[], raw: string[] = []) {
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line));
      }
      done();
    },
  });
  return pino({ level: "info" }, sink);
}

describe("gateway observability", () => {
  const lines: any[] = [];
  const raw: string[] = [];
  let sys: BackedSystem;
  beforeAll(async () => {
    sys = await startBackedSystem({ logger: capture(lines, raw), accessLog: { ACCESS_LOG: "all" } });
  });
  afterAll(() => sys.stop());

  it("exposes http_server_request_duration_seconds per route template and status", async () => {
    // Twice each: the second answer comes from the gateway's memory, before express, and counts the same.
    for (let i = 0; i < 2; i++) {
      await fetch(`${sys.gw.baseUrl}/domains`);
      await fetch(`${sys.gw.baseUrl}/domains/email`);
    }
    await fetch(`${sys.gw.baseUrl}/domains/nope`);
    await sys.authed("/wallet");
    const text = await (await fetch(`${sys.gw.origin}/metrics`)).text();
    const count = (route: string, code: number) =>
      new RegExp(
        `http_server_request_duration_seconds_count\\{http_request_method="GET",http_route="${route}",http_response_status_code="${code}"\\} (\\d+)`,
      ).exec(text)?.[1];
    expect(Number(count("/api/agentic-api/domains", 200))).toBeGreaterThanOrEqual(2);
    expect(Number(count("/api/agentic-api/domains/:domainKey", 200))).toBeGreaterThanOrEqual(2);
    expect(Number(count("/api/agentic-api/domains/:domainKey", 404))).toBeGreaterThanOrEqual(1);
    expect(Number(count("/api/agentic-api/wallet", 200))).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/process_resident_memory_bytes/);
  });

  it("logs one line per request with route and status, and never the key (ACCESS_LOG=all)", async () => {
    const before = lines.length;
    await sys.authed("/wallet");
    const logged = lines.slice(before).filter((l) => l.req?.url?.endsWith("/wallet"));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ route: "/api/agentic-api/wallet", res: { statusCode: 200 } });
    expect(JSON.stringify(lines)).not.toContain(TEST_KEY);
    const line = raw.slice(before).find((l) => l.includes('"url":"/api/agentic-api/wallet"'))!;
    expect(line.match(/"route":/g)).toHaveLength(1);
    expect(logged[0]).toMatchObject({ req: { method: "GET" }, userId: "user-gateway-test", durationMs: expect.any(Number) });
    expect(raw.join("\n")).not.toMatch(/authorization/i);
  });

  it("logs a cached catalog read like any other (ACCESS_LOG=all)", async () => {
    await fetch(`${sys.gw.baseUrl}/domains/email`);
    const before = lines.length;
    await fetch(`${sys.gw.baseUrl}/domains/email`);
    expect(lines.slice(before).filter((l) => l.req?.url?.endsWith("/domains/email"))).toEqual([
      expect.objectContaining({ level: 30, route: "/api/agentic-api/domains/:domainKey", res: { statusCode: 200 } }),
    ]);
  });

  it("logs client errors as warnings and leaves probes out", async () => {
    const before = lines.length;
    await fetch(`${sys.gw.baseUrl}/domains/nope`);
    await fetch(`${sys.gw.origin}/healthz`);
    await fetch(`${sys.gw.origin}/metrics`);
    const logged = lines.slice(before);
    expect(logged.filter((l) => l.req?.url?.endsWith("/domains/nope"))).toEqual([
      expect.objectContaining({ level: 40, route: "/api/agentic-api/domains/:domainKey", res: { statusCode: 404 } }),
    ]);
    expect(logged.filter((l) => /healthz|metrics/.test(l.req?.url ?? ""))).toEqual([]);
  });

  describe("by default (ACCESS_LOG=problems)", () => {
    const quiet: any[] = [];
    let gw: TestGateway;
    beforeAll(async () => {
      // No router: a recommend answers 503, a server error.
      gw = await startTestGateway({ catalogAddress: sys.catalog.address, ledgerAddress: sys.ledger.address, logger: capture(quiet) });
    });
    afterAll(() => gw.stop());

    it("logs server errors, and neither successes, nor client errors, nor probes", async () => {
      const authed = { authorization: `Bearer ${TEST_KEY}`, "content-type": "application/json" };
      expect((await fetch(`${gw.baseUrl}/wallet`, { headers: authed })).status).toBe(200);
      expect((await fetch(`${gw.baseUrl}/domains`)).status).toBe(200);
      expect((await fetch(`${gw.baseUrl}/domains/nope`)).status).toBe(404);
      await fetch(`${gw.origin}/healthz`);
      const recommend = await fetch(`${gw.baseUrl}/domains/email/capabilities/send/recommend`, {
        method: "POST",
        headers: authed,
        body: "{}",
      });
      expect(recommend.status).toBe(503);
      const logged = quiet.filter((l) => l.req);
      expect(logged).toEqual([
        expect.objectContaining({
          level: 50,
          msg: "request errored",
          route: "/api/agentic-api/domains/:domainKey/capabilities/:capabilityId/recommend",
          res: { statusCode: 503 },
          userId: "user-gateway-test",
        }),
      ]);
    });
  });

  it("/readyz checks every backend the gateway calls, the router included", async () => {
    // The executor turns SERVING once its catalog, ledger and router answer, which a loaded machine may
    // take a moment after start: read /readyz as a probe would, until it settles.
    let body: unknown;
    await waitFor(
      async () => {
        body = await (await fetch(`${sys.gw.origin}/readyz`)).json();
        return (body as { status?: string }).status === "ok";
      },
      { what: "every backend SERVING", timeoutMs: 30_000 },
    ).catch(() => undefined);
    expect(body).toEqual({
      status: "ok",
      checks: { catalog: "ok", ledger: "ok", router: "ok", executor: "ok" },
      catalog: "live",
    });
  });
});
