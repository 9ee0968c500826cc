// Free recommends cannot fill the shared JetStream storage under ever new agent names: a user has
// optimization preferences remembered for at most AGENT_NAMES_PER_USER_MAX names (3 here). One more is
// a 409 AGENT_NAMES_EXHAUSTED that says what to do, with nothing remembered; the names it has keep
// working, a request without agentName still ranks, another user is untouched, and an execute past the
// cap still runs with the goals it sent.
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { emailBody, execute, newUser, type TestUser } from "./execute-helpers";

describe("agent names with remembered preferences, per user", () => {
  let sys: BackedSystem;
  let user: TestUser;
  beforeAll(async () => {
    sys = await startBackedSystem({ routerEnv: { AGENT_NAMES_PER_USER_MAX: "3" } });
    user = await newUser(sys, 100);
  });
  afterAll(() => sys?.stop());

  const recommend = async (who: TestUser, body: Record<string, unknown>) => {
    const res = await sys.authed("/domains/email/capabilities/send/recommend", {
      key: who.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it("remembers three names, refuses a fourth with a 409 that says what to do, and keeps the three working", async () => {
    for (const agentName of ["alpha", "beta", "gamma"]) {
      expect((await recommend(user, { agentName, optimizationPreferences: ["speed"] })).status).toBe(200);
    }
    const refused = await recommend(user, { agentName: "delta", optimizationPreferences: ["quality"] });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, code: "AGENT_NAMES_EXHAUSTED" });
    expect(refused.body.error).toContain("3 agent names");
    expect(refused.body.hint).toContain("without agentName");
    // Nothing was remembered for the refused name: reading it ranks by the defaults.
    expect((await recommend(user, { agentName: "delta" })).body).toMatchObject({ preferenceSource: "default" });

    // A known name takes new goals; no name at all still ranks; another user has room of its own.
    expect((await recommend(user, { agentName: "alpha", optimizationPreferences: ["quality", "cost"] })).status).toBe(200);
    expect((await recommend(user, { agentName: "alpha" })).body).toMatchObject({
      preferenceSource: "agent",
      optimizationPreferences: ["quality", "cost"],
    });
    expect((await recommend(user, { optimizationPreferences: ["cost"] })).status).toBe(200);
    const other = await newUser(sys, 0);
    expect((await recommend(other, { agentName: "delta", optimizationPreferences: ["quality"] })).status).toBe(200);
  });

  it("still executes past the cap, with the goals the execute sent (not remembered)", async () => {
    const res = await execute(sys, user, "email", "send", emailBody({ optimizationPreferences: ["cost"] }), { "agent-name": "epsilon" });
    expect(res.status).toBe(200);
    expect((await recommend(user, { agentName: "epsilon" })).body).toMatchObject({ preferenceSource: "default" });
  });
});
