// Recommend failures through the gateway: auth, unknown keys, bad bodies — each a 4xx ErrorResponse.
import { startBackedSystem, type BackedSystem } from "./backed-system";

describe("POST recommend errors", () => {
  let sys: BackedSystem;
  const post = (path: string, body: string | undefined, headers: Record<string, string> = { "content-type": "application/json" }) =>
    sys.authed(path, { method: "POST", headers, body });

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
    [{ tracking: "yes" }, "tracking"],
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
});
