// Route health is shared by every user, so one user must not be able to spoil it: the vendor refusing
// one user's bad input, or failing only for that user, leaves the route executable and first-ranked for
// everyone else (the failing user's own calls may be blocked, nobody else's); the breaker still opens
// when the vendor fails for several users. Played over real HTTP against the provider sandbox's faults.
import { waitFor } from "@agentic/testing";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { execute, newUser, type TestUser } from "./execute-helpers";

const TEXT = { text: "Hallo Welt", targetLanguage: "en" };

describe("one caller cannot take a route away from everyone", () => {
  let sys: BackedSystem;
  let applied = 0;

  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());
  beforeEach(() => sys.sandbox.control.reset());

  const recommend = async (user: TestUser) => {
    const res = await sys.authed("/domains/translation/capabilities/text-translate/recommend", {
      key: user.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(TEXT),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as any;
  };
  const candidate = (rec: any, routeKey: string) => rec.candidates.find((c: any) => c.routeKey === routeKey);
  /** `n` executes of `user` pinned to `provider`, each expected to answer `status`; then waits until the router and the executor's ranking have read their outcomes. */
  const failTimes = async (user: TestUser, provider: string, n: number, status: number) => {
    for (let i = 0; i < n; i++) {
      const res = await execute(sys, user, "translation", "text-translate", { ...TEXT, provider, allowFallback: false });
      expect(res.status).toBe(status);
    }
    applied += n;
    await Promise.all([sys.router.waitForOutcomes(applied), sys.executor.waitForOutcomes(applied)]);
  };

  it("eight vendor refusals of one user's input leave the route executable and first-ranked for another user", async () => {
    const [mallory, bob] = await Promise.all([newUser(sys, 1_000), newUser(sys, 1_000)]);
    const { recommendedRouteKey: first, recommendedProvider: provider } = await recommend(bob);

    sys.sandbox.control.setFault({ provider, mode: "fail", status: 400 });
    await failTimes(mallory, provider, 8, 400);
    expect(sys.sandbox.control.calls().filter((c) => c.provider === provider)).toHaveLength(8);

    const forBob = await recommend(bob);
    expect(forBob.recommendedRouteKey).toBe(first);
    expect(candidate(forBob, first)).toMatchObject({ canExecuteNow: true, blockingRequirements: [] });
    const health = (await (await sys.authed("/domains/translation/capabilities/text-translate/routes")).json()) as any;
    expect(health.find((r: any) => r.routeKey === first).health).toMatchObject({ breakerState: "closed", observations: 0 });

    // The refusals are kept for the user who caused them: only that user's calls are held back.
    const forMallory = candidate(await recommend(mallory), first);
    expect(forMallory.blockingRequirements).toContain("ROUTE_UNHEALTHY");
    expect(forMallory.nextActions.join(" ")).toContain("Your last 8 calls");

    sys.sandbox.control.clearFaults();
    const served = await execute(sys, bob, "translation", "text-translate", TEXT);
    expect([served.status, served.body.routeKey]).toEqual([200, first]);
    applied += 1;
    await Promise.all([sys.router.waitForOutcomes(applied), sys.executor.waitForOutcomes(applied)]);
  });

  it("a vendor failing for one user alone opens no breaker; failing for several users opens it for everyone", async () => {
    const [mallory, ann, bob, carol] = await Promise.all([1, 2, 3, 4].map(() => newUser(sys, 1_000)));
    const { recommendedRouteKey: first, recommendedProvider: provider } = await recommend(carol);
    sys.sandbox.control.setFault({ provider, mode: "5xx" });

    // The vendor's 503s for one user only: the route's fault as far as we can tell, but nobody else saw it.
    await failTimes(mallory, provider, 8, 502);
    expect(candidate(await recommend(carol), first)).toMatchObject({ canExecuteNow: true });
    expect((await recommend(carol)).recommendedRouteKey).toBe(first);

    // Two more users see it: the breaker opens for everyone, and the pick moves to another route.
    await failTimes(ann, provider, 2, 502);
    await failTimes(bob, provider, 2, 502);
    await waitFor(async () => candidate(await recommend(carol), first).blockingRequirements.includes("ROUTE_UNHEALTHY"), {
      timeoutMs: 5_000,
      what: "the breaker to open for a fourth user",
    });
    const forCarol = await recommend(carol);
    expect(forCarol.recommendedRouteKey).not.toBe(first);
    expect(candidate(forCarol, first).nextActions.join(" ")).toMatch(/^Route .* failed \d+ calls in a row/);
  });
});
