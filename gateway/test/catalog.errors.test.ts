// Failures of the catalog half: unknown keys and paths, bad bodies, a backend that is down.
// Each answers with an ErrorResponse (success, error, code, hint) and never a stack trace.
import { startTestCatalog, type TestCatalog } from "@agentic/catalog/testing";
import { waitFor } from "@agentic/testing";
import { documentedHint, validateResponse as validate } from "./validate-response";
import { startTestGateway, type TestGateway } from "./harness";

function expectErrorBody(body: any, code: string) {
  expect(body).toMatchObject({ success: false, code, error: expect.any(String), hint: expect.any(String) });
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.(js|ts):\d+/); // no stack frames
}

describe("catalog endpoint errors", () => {
  let catalog: TestCatalog;
  let gw: TestGateway;
  beforeAll(async () => {
    catalog = await startTestCatalog();
    gw = await startTestGateway({ catalogAddress: catalog.address });
  });
  afterAll(async () => {
    await gw.stop();
    await catalog.stop();
  });

  it.each([
    ["/domains/nope", "/domains/{domainKey}"],
    ["/domains/nope/capabilities", "/domains/{domainKey}/capabilities"],
    ["/domains/nope/routes", "/domains/{domainKey}/routes"],
    ["/domains/nope/capabilities/send", "/domains/{domainKey}/capabilities/{capabilityId}"],
    ["/domains/nope/capabilities/send/contract", "/domains/{domainKey}/capabilities/{capabilityId}/contract"],
  ])("GET %s → 404 DOMAIN_NOT_FOUND", async (path, template) => {
    const res = await fetch(gw.baseUrl + path);
    const body = await res.json();
    expect(res.status).toBe(404);
    expectErrorBody(body, "DOMAIN_NOT_FOUND");
    expect(validate("get", template, 404, body)).toEqual([]);
  });

  it.each([
    "/domains/email/capabilities/teleport",
    "/domains/email/capabilities/teleport/routes",
    "/domains/email/capabilities/teleport/contract",
  ])("GET %s → 404 CAPABILITY_NOT_FOUND", async (path) => {
    const res = await fetch(gw.baseUrl + path);
    expect(res.status).toBe(404);
    expectErrorBody(await res.json(), "CAPABILITY_NOT_FOUND");
  });

  it("answers unknown paths with a JSON 404", async () => {
    for (const url of [`${gw.origin}/nothing`, `${gw.baseUrl}/domains/email/capabilities/send/teleport`]) {
      const res = await fetch(url);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expectErrorBody(await res.json(), "NOT_FOUND");
    }
  });

  it("answers malformed JSON with 400 INVALID_JSON", async () => {
    const res = await fetch(`${gw.baseUrl}/domains`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expectErrorBody(await res.json(), "INVALID_JSON");
  });

  it("answers a body the parser cannot read (gzip that is not gzip) with 400 INVALID_BODY, not a 500", async () => {
    const res = await fetch(`${gw.baseUrl}/domains`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: '{"not":"gzip"}',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expectErrorBody(body, "INVALID_BODY");
    expect(body.hint).toBe(documentedHint("INVALID_BODY"));
  });

  it("answers an oversized body with 413 PAYLOAD_TOO_LARGE", async () => {
    const big = JSON.stringify({ text: "x".repeat(100 * 1024) });
    const res = await fetch(`${gw.baseUrl}/domains`, { method: "POST", headers: { "content-type": "application/json" }, body: big });
    expect(res.status).toBe(413);
    expectErrorBody(await res.json(), "PAYLOAD_TOO_LARGE");
  });

  it("/healthz is alive and /readyz checks the catalog", async () => {
    expect((await fetch(`${gw.origin}/healthz`)).status).toBe(200);
    const ready = await fetch(`${gw.origin}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ok", checks: { catalog: "ok" }, catalog: "live" });
  });
});

describe("when the catalog is down", () => {
  it("answers what it has read from memory, a path never read 503 UNAVAILABLE with Retry-After, and /readyz stays 200 (degraded)", async () => {
    const catalog = await startTestCatalog();
    const gw = await startTestGateway({ catalogAddress: catalog.address });
    try {
      // Polled as a readiness probe polls it: a loaded machine may answer the first check late.
      await waitFor(async () => (await fetch(`${gw.origin}/readyz`)).status === 200, { what: "the new gateway's /readyz 200" });
      // The domain list is in memory once read (the gateway also reads it ahead when the catalog first
      // answers, but in the background: reading it here keeps the test from racing that read).
      expect((await fetch(`${gw.baseUrl}/domains`)).status).toBe(200);
      await catalog.stop();
      expect((await fetch(`${gw.baseUrl}/domains`)).status).toBe(200);
      const res = await fetch(`${gw.baseUrl}/domains/email/capabilities`);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      const body = (await res.json()) as { hint: string };
      expectErrorBody(body, "UNAVAILABLE");
      expect(body.hint).toMatch(/catalog is unavailable; retry after \d+ s/);
      const ready = await fetch(`${gw.origin}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: "degraded", checks: { catalog: "unavailable" }, catalog: "from memory" });
    } finally {
      await gw.stop();
    }
  });

  it("a gateway that never reached its catalog has nothing to serve: /readyz 503", async () => {
    const gw = await startTestGateway({ catalogAddress: "127.0.0.1:1" });
    try {
      const res = await fetch(`${gw.baseUrl}/domains`);
      expect(res.status).toBe(503);
      expectErrorBody(await res.json(), "UNAVAILABLE");
      const ready = await fetch(`${gw.origin}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: "unavailable", checks: { catalog: "unavailable" }, catalog: "unavailable" });
    } finally {
      await gw.stop();
    }
  });
});
