// A recommendation runs only while it is valid: past its lifetime an execute naming it answers 410
// RECOMMENDATION_EXPIRED and never re-ranks, holds or calls a provider. The router keeps answers
// RECOMMENDATION_TTL_MS (three seconds here) and says when each expires; its bucket keeps an expired
// one for one more lifetime, so the execute below has three seconds, even on a loaded machine, to find it expired
// rather than forgotten.
import { waitFor } from "@agentic/testing";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, emailBody, execute, newUser, usage, type TestUser } from "./execute-helpers";

describe("an expired recommendationId", () => {
  let sys: BackedSystem;
  let user: TestUser;
  beforeAll(async () => {
    sys = await startBackedSystem({ routerEnv: { RECOMMENDATION_TTL_MS: "3000" } });
    user = await newUser(sys, 200);
  });
  afterAll(() => sys?.stop());

  it("answers 410 RECOMMENDATION_EXPIRED with nothing held, charged or called", async () => {
    const res = await sys.authed("/domains/email/capabilities/send/recommend", {
      key: user.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ optimizationPreferences: ["speed"] }),
    });
    expect(res.status).toBe(200);
    const rec = (await res.json()) as { recommendationId: string; recommendationExpiresAt: string };
    const expiresAt = Date.parse(rec.recommendationExpiresAt);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(3_000);
    await waitFor(() => Date.now() > expiresAt + 50, { what: "the recommendation's expiry", timeoutMs: 5_000 });

    const gone = await execute(sys, user, "email", "send", emailBody({ recommendationId: rec.recommendationId }));
    expect([gone.status, gone.body.code]).toEqual([410, "RECOMMENDATION_EXPIRED"]);
    expect(gone.body.hint).toEqual(expect.stringContaining("recommend"));
    expect(sys.sandbox.control.calls()).toEqual([]);
    expect(await balance(sys, user)).toBe(200);
    expect(await usage(sys, user)).toEqual([]);
  });
});
