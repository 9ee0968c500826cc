// Wallet, usage and dev init through the gateway against a real ledger and catalog.
import { validateResponse as validate } from "./validate-response";
import { startBackedSystem, TEST_USER, type BackedSystem } from "./backed-system";

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("wallet, usage and dev init", () => {
  let sys: BackedSystem;
  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys.stop());

  it("GET /wallet shows the key's user with balance 0 before any grant", async () => {
    const res = await sys.authed("/wallet");
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(validate("get", "/wallet", 200, body)).toEqual([]);
    expect(body).toEqual({ success: true, userId: TEST_USER, balanceCredits: 0, reservedCredits: 0, spendPolicies: [] });
  });

  it("POST /dev/init tops up a wallet and reports what it credited", async () => {
    const first = await post(`${sys.gw.baseUrl}/dev/init`, { userId: TEST_USER, balanceCredits: 250 });
    const body = (await first.json()) as any;
    expect(first.status).toBe(200);
    expect(validate("post", "/dev/init", 200, body)).toEqual([]);
    expect(body).toMatchObject({ success: true, userId: TEST_USER, balanceCredits: 250, credited: 250 });
    expect(body.providers).toEqual(expect.arrayContaining(["resend"]));

    const second = (await (await post(`${sys.gw.baseUrl}/dev/init`, { userId: TEST_USER, balanceCredits: 50 })).json()) as any;
    expect(second).toMatchObject({ balanceCredits: 300, credited: 50 });
    expect(await (await sys.authed("/wallet")).json()).toMatchObject({ balanceCredits: 300 });
  });

  it("POST /dev/init with no body uses the default user and amount", async () => {
    const res = await fetch(`${sys.gw.baseUrl}/dev/init`, { method: "POST" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, userId: "dev-user", credited: 1000 });
  });

  it("POST /dev/init with a form body → 415 UNSUPPORTED_MEDIA_TYPE, not the defaults", async () => {
    const res = await fetch(`${sys.gw.baseUrl}/dev/init`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "balanceCredits=5",
    });
    const body = (await res.json()) as any;
    expect([res.status, body.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
    expect(validate("post", "/dev/init", 415, body)).toEqual([]);
  });

  it.each([
    [{ balanceCredits: 0 }, "balanceCredits"],
    [{ balanceCredits: 1.5 }, "balanceCredits"],
    [{ balanceCredits: "10" }, "balanceCredits"],
    [{ userId: "" }, "userId"],
    [{ userId: 42 }, "userId"],
    [{ credits: 10 }, "credits"],
  ])("POST /dev/init %j → 400 INVALID_INPUT naming %s", async (body, field) => {
    const res = await post(`${sys.gw.baseUrl}/dev/init`, body);
    expect(res.status).toBe(400);
    const err = (await res.json()) as any;
    expect(err).toMatchObject({ success: false, code: "INVALID_INPUT" });
    expect(err.error).toContain(field);
  });

  it("GET /wallet?userId= reads another wallet outside production", async () => {
    await post(`${sys.gw.baseUrl}/dev/init`, { userId: "someone-else", balanceCredits: 7 });
    const body = (await (await sys.authed("/wallet?userId=someone-else")).json()) as any;
    expect(body).toEqual({ success: true, userId: "someone-else", balanceCredits: 7, reservedCredits: 0, spendPolicies: [] });
  });

  it("GET /usage lists items (none yet) with the default limit", async () => {
    const res = await sys.authed("/usage");
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(validate("get", "/usage", 200, body)).toEqual([]);
    expect(body).toEqual({ success: true, userId: TEST_USER, items: [], nextCursor: null });
  });

  it.each(["0", "101", "-1", "abc", "1.5", "20&limit=3"])("GET /usage?limit=%s → 400 INVALID_INPUT", async (limit) => {
    const res = await sys.authed(`/usage?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "INVALID_INPUT", hint: expect.stringContaining("limit") });
  });

  it.each(["1", "100"])("GET /usage?limit=%s is accepted", async (limit) => {
    expect((await sys.authed(`/usage?limit=${limit}`)).status).toBe(200);
  });
});

describe("in production", () => {
  let sys: BackedSystem;
  beforeAll(async () => {
    sys = await startBackedSystem({ devRoutes: false });
  });
  afterAll(() => sys.stop());

  it("POST /dev/init does not exist", async () => {
    const res = await post(`${sys.gw.baseUrl}/dev/init`, { balanceCredits: 10 });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "NOT_FOUND" });
  });

  it("GET /wallet ignores ?userId=", async () => {
    const body = (await (await sys.authed("/wallet?userId=someone-else")).json()) as any;
    expect(body.userId).toBe(TEST_USER);
  });

  it("/openapi.json does not offer /dev/init", async () => {
    const doc = (await (await fetch(`${sys.gw.baseUrl}/openapi.json`)).json()) as any;
    expect(doc.paths).not.toHaveProperty("/dev/init");
  });
});
