// Authentication of the bearer-protected routes: every way to present a bad key is a 401 with
// the right code and a hint; a revoked key stops working within the cache TTL.
import { parseBearer } from "../src/middleware/auth";
import { startBackedSystem, TEST_KEY, type BackedSystem } from "./backed-system";

describe("parseBearer", () => {
  it.each([
    [undefined, "AGENTIC_API_KEY_REQUIRED"],
    ["", "AGENTIC_API_KEY_REQUIRED"],
    ["Bearer", "AGENTIC_API_KEY_REQUIRED"],
    ["Bearer   ", "AGENTIC_API_KEY_REQUIRED"],
    ["Basic dXNlcjpwYXNz", "INVALID_API_KEY"],
    ["Token aak_x", "INVALID_API_KEY"],
  ])("%j → %s", (header, code) => {
    expect(parseBearer(header)).toMatchObject({ code });
  });

  it("reads the key, case-insensitively on the scheme", () => {
    expect(parseBearer("bearer aak_abc")).toEqual({ key: "aak_abc" });
  });
});

describe("bearer auth over HTTP", () => {
  let sys: BackedSystem;
  beforeAll(async () => {
    sys = await startBackedSystem({ auth: { ttlMs: 200, negativeTtlMs: 50 } });
  });
  afterAll(() => sys.stop());

  it.each(["/wallet", "/usage"])("GET %s without a key → 401 AGENTIC_API_KEY_REQUIRED", async (path) => {
    const res = await fetch(sys.gw.baseUrl + path);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await res.json()).toMatchObject({ success: false, code: "AGENTIC_API_KEY_REQUIRED", hint: expect.stringContaining("Bearer") });
  });

  it("a wrong scheme → 401 INVALID_API_KEY", async () => {
    const res = await fetch(`${sys.gw.baseUrl}/wallet`, { headers: { authorization: `Basic ${TEST_KEY}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "INVALID_API_KEY" });
  });

  it.each(["aak_unknownunknownunknownunknownunknown", "not-a-key"])("an unknown key %s → 401 INVALID_API_KEY", async (key) => {
    const res = await sys.authed("/wallet", { key });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ success: false, code: "INVALID_API_KEY", hint: expect.any(String) });
  });

  it("a revoked key stops working within the cache TTL", async () => {
    const created = await sys.ledger.client.createApiKey({ userId: "revoke-me", name: "test" });
    expect((await sys.authed("/wallet", { key: created.apiKey })).status).toBe(200);
    await sys.ledger.client.revokeApiKey({ keyId: created.key!.keyId });
    const deadline = Date.now() + 2_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await sys.authed("/wallet", { key: created.apiKey })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 25));
    }
    expect(status).toBe(401);
  });
});
