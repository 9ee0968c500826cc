// What SREs read: /metrics shows RED series per route after traffic, and each request logs one
// JSON line with its route and status, never the API key.
import pino from "pino";
import { Writable } from "node:stream";
import { startBackedSystem, TEST_KEY, type BackedSystem } from "./backed-system";

describe("gateway observability", () => {
  const lines: any[] = [];
  /** The same lines as written (JSON.parse would hide a repeated key). */
  const raw: string[] = [];
  let sys: BackedSystem;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean)) {
          raw.push(line);
          lines.push(JSON.parse(line));
        }
        done();
      },
    });
    sys = await startBackedSystem({ logger: pino({ level: "info" }, sink) });
  });
  afterAll(() => sys.stop());

  it("exposes http_server_request_duration_seconds per route template and status", async () => {
    await fetch(`${sys.gw.baseUrl}/domains`);
    await fetch(`${sys.gw.baseUrl}/domains/email`);
    await fetch(`${sys.gw.baseUrl}/domains/nope`);
    await sys.authed("/wallet");
    const text = await (await fetch(`${sys.gw.origin}/metrics`)).text();
    const count = (route: string, code: number) =>
      new RegExp(
        `http_server_request_duration_seconds_count\\{http_request_method="GET",http_route="${route}",http_response_status_code="${code}"\\} (\\d+)`,
      ).exec(text)?.[1];
    expect(Number(count("/api/agentic-api/domains", 200))).toBeGreaterThanOrEqual(1);
    expect(Number(count("/api/agentic-api/domains/:domainKey", 200))).toBeGreaterThanOrEqual(1);
    expect(Number(count("/api/agentic-api/domains/:domainKey", 404))).toBeGreaterThanOrEqual(1);
    expect(Number(count("/api/agentic-api/wallet", 200))).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/process_resident_memory_bytes/);
  });

  it("logs one line per request with route and status, and never the key", async () => {
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

  it("/readyz checks every backend the gateway calls, the router included", async () => {
    const ready = await fetch(`${sys.gw.origin}/readyz`);
    expect(await ready.json()).toEqual({ status: "ok", checks: { catalog: "ok", ledger: "ok", router: "ok", executor: "ok" } });
  });
});
