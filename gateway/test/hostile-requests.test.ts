// Hostile and broken clients against the real gateway over real sockets: every answer is a JSON
// ErrorResponse with the right 4xx, within a second, and nothing hangs or reaches a provider.
import { rawRequest } from "./raw-http";
import { startBackedSystem, TEST_KEY, type BackedSystem } from "./backed-system";
import { BASE_PATH, startTestGateway } from "./harness";

let sys: BackedSystem;
let port: number;
beforeAll(async () => {
  // Short parser timeouts so slow clients are cut off within the test's second.
  sys = await startBackedSystem({ headersTimeoutMs: 400, requestTimeoutMs: 600 });
  port = Number(new URL(sys.gw.origin).port);
});
afterAll(() => sys?.stop());

const execPath = `${BASE_PATH}/domains/email/capabilities/send/execute`;

function expectErrorResponse(
  answer: { status: number; headers: Record<string, string>; body: string; closedAfterMs: number },
  status: number,
  code?: string,
) {
  expect(answer.status).toBe(status);
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(body).toMatchObject({ success: false, error: expect.any(String), code: code ?? expect.any(String), hint: expect.any(String) });
  expect(answer.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|round_robin|at .*\.js/);
  expect(answer.closedAfterMs).toBeLessThan(1_000);
}

describe("the HTTP parser's rejections are ErrorResponses", () => {
  it.each([
    ["a 20 KB header", 431, `GET ${BASE_PATH}/domains HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`],
    ["a 100 KB URL", 431, `GET ${BASE_PATH}/domains?${"q".repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ["a garbage request line", 400, "HELLO THERE\r\n\r\n"],
    ["an unknown method", 400, `FROB ${BASE_PATH}/domains HTTP/1.1\r\nHost: x\r\n\r\n`],
    ["HTTP/1.1 without Host", 400, `GET ${BASE_PATH}/domains HTTP/1.1\r\n\r\n`],
    ["a NUL in the Authorization header", 400, `GET ${BASE_PATH}/wallet HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer aak_\u0000x\r\n\r\n`],
  ])("%s → %i", async (_what, status, request) => {
    expectErrorResponse(await rawRequest(port, [request]), status);
  });

  it("a declared body over the limit is refused from its header at once (413), whatever arrives after", async () => {
    const head = `POST ${execPath} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 10737418240\r\n\r\n`;
    expectErrorResponse(await rawRequest(port, [head, '{"to":"a@b.co","x":1']), 413, "PAYLOAD_TOO_LARGE");
    const unknownPath = `POST ${BASE_PATH}/nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10737418240\r\n\r\n{}`;
    expectErrorResponse(await rawRequest(port, [unknownPath]), 413, "PAYLOAD_TOO_LARGE");
  });

  it("slow headers and slow bodies are cut off with 408", async () => {
    expectErrorResponse(
      await rawRequest(port, [`GET ${BASE_PATH}/domains HTTP/1.1\r\nHost: x\r\n`, 2_000], 3_000).then((a) => ({
        ...a,
        closedAfterMs: a.closedAfterMs - 400,
      })),
      408,
    );
    const slowBody = `POST ${execPath} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"to":`;
    expectErrorResponse(
      await rawRequest(port, [slowBody, 2_000], 3_000).then((a) => ({ ...a, closedAfterMs: a.closedAfterMs - 600 })),
      408,
    );
    expect(sys.sandbox.control.calls()).toHaveLength(0);
  });

  it.each([[`${BASE_PATH}/domains/%zz`], [`${BASE_PATH}/domains/%`], [`${BASE_PATH}/domains/email/capabilities/%E0%A4%A/contract`]])(
    "malformed percent-encoding %s → 400",
    async (path) => {
      expectErrorResponse(await rawRequest(port, [`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`]), 400, "INVALID_PATH");
    },
  );
});

describe("bodies are read strictly", () => {
  const post = (path: string, body: string) => sys.authed(path, { method: "POST", headers: { "content-type": "application/json" }, body });

  it.each([
    ["a __proto__ key", '{"to":"ada@example.com","subject":"s","text":"t","__proto__":{"admin":true}}'],
    ["a constructor.prototype key", '{"to":"ada@example.com","subject":"s","text":"t","constructor":{"prototype":{"x":1}}}'],
    ["a NUL in an address", '{"to":"ada@example.com\\u0000bcc:eve@example.com","subject":"s","text":"t"}'],
  ])("execute with %s → 400, nothing sent", async (_what, body) => {
    const res = await post("/domains/email/capabilities/send/execute", body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, code: "INVALID_INPUT" });
    expect(sys.sandbox.control.calls()).toHaveLength(0);
  });

  it('recommend with "tracking": "yes" (a string where the contract says boolean) → 400', async () => {
    const res = await post("/domains/email/capabilities/send/recommend", '{"tracking":"yes"}');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "INVALID_INPUT" });
  });
});

describe("responses", () => {
  it("user-specific answers are never cached, and every answer carries the API security headers", async () => {
    for (const path of ["/wallet", "/usage"]) {
      const res = await sys.authed(path);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    const exec = await sys.authed("/domains/email/capabilities/send/execute", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(exec.headers.get("cache-control")).toBe("no-store");
    const catalog = await fetch(`${sys.gw.baseUrl}/domains`);
    expect(catalog.headers.get("x-content-type-options")).toBe("nosniff");
    expect(catalog.headers.get("strict-transport-security")).toMatch(/max-age=/);
    expect(catalog.headers.get("x-frame-options")).toBeTruthy();
    expect(catalog.headers.get("x-powered-by")).toBeNull();
  });
});

describe("production", () => {
  it("serves /metrics on its own port only, never on the public one", async () => {
    const gw = await startTestGateway({ catalogAddress: sys.catalog.address, devRoutes: false, metricsPort: 0 });
    try {
      expect((await fetch(`${gw.origin}/metrics`)).status).toBe(404);
      expect(gw.metricsPort).toEqual(expect.any(Number));
      const scraped = await fetch(`http://127.0.0.1:${gw.metricsPort}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain("http_server_request_duration_seconds");
    } finally {
      await gw.stop();
    }
  });
});
