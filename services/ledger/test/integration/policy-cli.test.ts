// `npm run keys -- policy` against a running ledger, as a child process, and what the ledger then does
// over gRPC: a policy set from the CLI refuses the next hold over it (SPEND_LIMIT_EXCEEDED,
// PRICE_ABOVE_MAX, with the limit, what remains and when it resets in the answer), GetWallet shows it,
// and --clear lifts it. The ledger's clock is fixed, so the periods are known.
import { remoteError, runScript, uid, useNatsServer, useTestLedger } from "../support";

const NOW = new Date("2030-01-07T10:00:00.000Z"); // a Monday
const keys = (addr: string, ...args: string[]) => runScript("keys.mjs", addr, args);

const nats = useNatsServer();
const ledger = useTestLedger(nats, { clock: () => NOW });

describe("npm run keys -- policy", () => {
  it("sets a key's policy that the next hold obeys, shows it with what it spent, and --clear lifts it", async () => {
    const t = ledger();
    const userId = uid("user");
    const { key } = await t.client.createApiKey({ userId, name: "" });
    const keyId = key!.keyId;
    await t.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 1_000, reason: "test" });
    const hold = (amountCredits: number, agentName?: string) =>
      t.client.holdCredits({
        holdId: uid("att"),
        userId,
        amountCredits,
        ttlMs: 0,
        routeKey: "email.send.resend",
        keyId,
        capabilityKey: "email.send",
        ...(agentName ? { agentName } : {}),
      });

    const set = await keys(
      t.address,
      "policy",
      "--key",
      keyId,
      "--budget",
      "30",
      "--reset",
      "daily",
      "--capability",
      "email.send",
      "--cap-count",
      "2",
      "--max-price",
      "20",
    );
    expect(set).toMatchObject({
      code: 0,
      stdout:
        `${keyId}: budget 30 credits per UTC day, 0 spent (0 held), 30 left; ` +
        "email.send: at most 2 executions per UTC day (0 credits, 0 executions so far); at most 20 credits per execution; " +
        "resets at 2030-01-08T00:00:00.000Z\n",
    });

    await hold(20);
    await expect(remoteError(hold(15))).resolves.toMatchObject({
      code: "SPEND_LIMIT_EXCEEDED",
      hint: expect.stringContaining(`The budget of key ${keyId} has 10 of 30 credits left until 2030-01-08T00:00:00.000Z, when it resets`),
      details: { keyId, limit: "budget", limitValue: 30, remaining: 10, requestedCredits: 15, resetsAt: "2030-01-08T00:00:00.000Z" },
    });
    await expect(remoteError(hold(21))).resolves.toMatchObject({ code: "PRICE_ABOVE_MAX", details: { limitValue: 20 } });
    await hold(10);
    await expect(remoteError(hold(1))).resolves.toMatchObject({ code: "SPEND_LIMIT_EXCEEDED" });
    // The refusals held nothing.
    expect((await t.client.getWallet({ userId })).wallet).toMatchObject({ balanceCredits: 970, heldCredits: 30 });

    const shown = await keys(t.address, "policy", "--key", keyId, "--json");
    expect(JSON.parse(shown.stdout)).toEqual([
      expect.objectContaining({
        keyId,
        reset: "daily",
        budgetCredits: 30,
        spentCredits: 30,
        heldCredits: 30,
        remainingCredits: 0,
        capabilityCaps: [{ capabilityKey: "email.send", maxCount: 2, spentCredits: 30, count: 2 }],
        periodStart: "2030-01-07T00:00:00.000Z",
        resetsAt: "2030-01-08T00:00:00.000Z",
      }),
    ]);

    // An agent's own policy under the key, seen by GetWallet for that key and agent.
    expect((await keys(t.address, "policy", "--key", keyId, "--agent", "alpha", "--budget", "5", "--reset", "none")).code).toBe(0);
    const { spendPolicies } = await t.client.getWallet({ userId, keyId, agentName: "alpha" });
    expect(spendPolicies.map((s) => [s.policy?.agentName, s.policy?.reset, s.resetsAt])).toEqual([
      [undefined, "daily", new Date("2030-01-08T00:00:00.000Z")],
      ["alpha", "none", undefined],
    ]);
    expect((await t.client.getWallet({ userId, keyId, agentName: "beta" })).spendPolicies).toHaveLength(1);

    expect(await keys(t.address, "policy", "--key", keyId, "--clear")).toMatchObject({ code: 0, stdout: `${keyId}: no spend policy.\n` });
    await expect(hold(100)).resolves.toMatchObject({ hold: { state: "held" } });
    await expect(remoteError(hold(6, "alpha"))).resolves.toMatchObject({ code: "SPEND_LIMIT_EXCEEDED", details: { agentName: "alpha" } });
  });

  it("--other-agents sets the default agent policy: agents without their own share it, whatever they call themselves", async () => {
    const t = ledger();
    const userId = uid("user");
    const { key } = await t.client.createApiKey({ userId, name: "" });
    const keyId = key!.keyId;
    await t.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 1_000, reason: "test" });
    const hold = (amountCredits: number, agentName?: string) =>
      t.client.holdCredits({
        holdId: uid("att"),
        userId,
        amountCredits,
        ttlMs: 0,
        routeKey: "email.send.resend",
        keyId,
        capabilityKey: "email.send",
        ...(agentName ? { agentName } : {}),
      });
    expect(await keys(t.address, "policy", "--key", keyId, "--other-agents", "--budget", "10", "--reset", "daily")).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(`${keyId} (agents without a policy of their own): budget 10 credits per UTC day`),
    });
    // "Alpha" with a zero-width space is alpha, whose own policy the admin set as "ALPHA".
    expect((await keys(t.address, "policy", "--key", keyId, "--agent", "ALPHA", "--budget", "100", "--reset", "daily")).code).toBe(0);
    await hold(60, "Alpha\u200B");
    await hold(6, "beta");
    await hold(3);
    await expect(remoteError(hold(2, "gamma"))).resolves.toMatchObject({
      code: "SPEND_LIMIT_EXCEEDED",
      message: expect.stringContaining("agents without a policy of their own"),
      details: { otherAgents: true, remaining: 1 },
    });
    await expect(remoteError(hold(41, "alpha"))).resolves.toMatchObject({ details: { agentName: "alpha", remaining: 40 } });
    const shown = JSON.parse((await keys(t.address, "policy", "--key", keyId, "--other-agents", "--json")).stdout);
    expect(shown).toEqual([expect.objectContaining({ otherAgents: true, spentCredits: 9, remainingCredits: 1 })]);
    expect(await keys(t.address, "policy", "--key", keyId, "--other-agents", "--clear")).toMatchObject({
      code: 0,
      stdout: `${keyId} (agents without a policy of their own): no spend policy.\n`,
    });
    await expect(hold(2, "gamma")).resolves.toMatchObject({ hold: { state: "held" } });
    await expect(keys(t.address, "policy", "--key", keyId, "--other-agents", "--agent", "a", "--max-price", "1")).resolves.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("not both"),
    });
  });

  it("explains usage mistakes and the ledger's refusals", async () => {
    const t = ledger();
    const { key } = await t.client.createApiKey({ userId: uid("user"), name: "" });
    const keyId = key!.keyId;
    await expect(keys(t.address, "policy", "--budget", "5")).resolves.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("policy needs --key"),
    });
    await expect(keys(t.address, "policy", "--key", keyId, "--budget", "5")).resolves.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("needs --reset"),
    });
    await expect(
      keys(t.address, "policy", "--key", keyId, "--capability", "a.b", "--capability", "c.d", "--cap-count", "1"),
    ).resolves.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("give each --capability its own"),
    });
    await expect(keys(t.address, "policy", "--key", keyId, "--budget", "5", "--reset", "hourly")).resolves.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("reset must be one of daily, weekly, monthly, none"),
    });
    await expect(keys(t.address, "policy", "--key", keyId, "--budget", "0", "--reset", "daily")).resolves.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("budget_credits must be a whole number from 1"),
    });
    await expect(keys(t.address, "policy", "--key", "key_missing", "--max-price", "5")).resolves.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("API_KEY_NOT_FOUND"),
    });
    await expect(keys(t.address, "policy", "--key", keyId)).resolves.toMatchObject({ code: 0, stdout: `${keyId}: no spend policy.\n` });
  });
});
