// Recommend failures through the gateway: auth, unknown keys, bad bodies — each a 4xx ErrorResponse.
import { startBackedSystem, type BackedSystem } from "./backed-system";

describe("POST recommend errors", () => {
  let sys: BackedSystem;
  const post = (
    path: string,
    body: string | Uint8Array | undefined,
    headers: Record<string, string> = { "content-type": "application/json" },
  ) => sys.authed(path, { method: "POST", headers, body });

  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys.stop());

  it("without a key → 401 AGENTIC_API_KEY_REQUIRED", async () => {
    const res = await fetch(`${sys.gw.baseUrl}/domains/email/capabilities/send/recommend`, { method: "POST" });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "AGENTIC_API_KEY_REQUIRED" });
  });

  it.each([
    ["/domains/nope/capabilities/send/recommend", "DOMAIN_NOT_FOUND"],
    ["/domains/email/capabilities/teleport/recommend", "CAPABILITY_NOT_FOUND"],
  ])("%s → 404 %s", async (path, code) => {
    const res = await post(path, "{}");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, code, hint: expect.any(String) });
  });

  it.each([
    [{ optimizationPreferences: ["cheapness"] }, "optimizationPreferences"],
    [{ optimizationPreferences: "cost" }, "optimizationPreferences"],
    [{ optimizationPreferences: ["cost", "cost"] }, "optimizationPreferences"],
    [{ agentName: 42 }, "agentName"],
    [{ agentName: "x".repeat(101) }, "agentName"],
  ])("%j → 400 INVALID_INPUT naming the field", async (body, field) => {
    const res = await post("/domains/email/capabilities/send/recommend", JSON.stringify(body));
    const err = (await res.json()) as any;
    expect(res.status).toBe(400);
    expect(err).toMatchObject({ success: false, code: "INVALID_INPUT" });
    expect(`${err.error} ${err.hint}`).toContain(field);
  });

  it.each(["[1,2]", '"cost"', "{bad json"])("body %s → 400", async (body) => {
    const res = await post("/domains/email/capabilities/send/recommend", body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).code).toMatch(/^(INVALID_INPUT|INVALID_JSON)$/);
  });

  /** A small JSON object nesting `depth` levels (the object itself is level 1). */
  const nested = (depth: number) => `{"a":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;

  it("a small body nested 5,000 levels deep → 400 INVALID_INPUT naming the body, not a 500", async () => {
    const res = await post("/domains/email/capabilities/send/recommend", nested(5_000));
    const err = (await res.json()) as any;
    expect([res.status, err.code]).toEqual([400, "INVALID_INPUT"]);
    expect(err.error).toMatch(/^body: .*32 levels/);
    expect(err.hint).toEqual(expect.any(String));
  });

  it("nesting is refused from 33 levels on; 32 levels pass (recommend ignores unknown fields)", async () => {
    const at33 = await post("/domains/email/capabilities/send/recommend", nested(33));
    expect([at33.status, ((await at33.json()) as any).error]).toEqual([400, expect.stringMatching(/^body: /)]);
    const at32 = await post("/domains/email/capabilities/send/recommend", nested(32));
    expect(at32.status).toBe(200);
  });

  it("a form-encoded body (curl -d) → 415 UNSUPPORTED_MEDIA_TYPE, not defaults", async () => {
    const res = await post("/domains/email/capabilities/send/recommend", "optimizationPreferences=speed", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ success: false, code: "UNSUPPORTED_MEDIA_TYPE", hint: "Send Content-Type: application/json" });
  });

  it("a body without any Content-Type → 415; no body at all stays valid", async () => {
    const res = await post("/domains/email/capabilities/send/recommend", new TextEncoder().encode('{"tracking":true}'), {});
    expect(res.status).toBe(415);
    expect(((await res.json()) as any).code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect((await post("/domains/email/capabilities/send/recommend", undefined, {})).status).toBe(200);
  });
});
