// Scenario: an agent's budget holds against the agent itself, over the whole execute path (gateway,
// executor, router, catalog, ledger, provider sandbox, nats-server). A key issued for agent alpha is
// alpha's whatever Agent-Name it sends: none, another case, an invisible character (sent as UTF-8, as
// clients do), a soft hyphen; another agent's name is a 400 before anything is held. A key requiring
// agents takes only their names; the default agent policy makes agents that rename themselves share
// one budget. Executes run in parallel with distinct Idempotency-Keys.
import type { SpendPolicy } from "@agentic/proto/ledger/v1";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { executeOnceWarm, expectBalanceEqualsJournal, settled, usage, type ExecuteResult, type TestUser } from "./execute-helpers";

const PRICE = 10; // email.send on resend
/** A header value carrying `text` as UTF-8 bytes, as an HTTP client sends it (fetch takes header values as latin1 code units). */
const utf8Header = (text: string) => Buffer.from(text, "utf8").toString("latin1");

let users = 0;
interface KeyUser extends TestUser {
  keyId: string;
}

async function newUser(sys: BackedSystem, agents: { agentName?: string; agentNames?: { names: string[] } } = {}): Promise<KeyUser> {
  const userId = `agent-key-user-${process.pid}-${++users}`;
  const { apiKey, key } = await sys.ledger.client.createApiKey({ userId, name: "agent budget tests", ...agents });
  await sys.ledger.client.grantCredits({ grantId: `grant-${userId}`, userId, amountCredits: 1_000, reason: "test" });
  return { userId, key: apiKey, keyId: key!.keyId };
}

const setPolicy = (sys: BackedSystem, policy: Partial<SpendPolicy> & { keyId: string }) =>
  sys.ledger.client.setSpendPolicy({ policy: { reset: "daily", capabilityCaps: [], ...policy }, clear: false });

let sent = 0;
/** One email.send on resend under a fresh Idempotency-Key; a cold-start 503/504 is asked again with the same key, as a client would. */
async function send(sys: BackedSystem, user: TestUser, agentName?: string): Promise<ExecuteResult> {
  const headers: Record<string, string> = { "idempotency-key": `agent-key-${process.pid}-${++sent}` };
  if (agentName !== undefined) headers["agent-name"] = agentName;
  const body = { to: "ada@example.com", subject: "Report", text: "Hi.", provider: "resend" };
  return executeOnceWarm(sys, user, "email", "send", body, headers);
}

async function post(sys: BackedSystem, user: TestUser, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await sys.authed(path, {
    key: user.key,
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function wallet(sys: BackedSystem, user: TestUser, headers: Record<string, string> = {}): Promise<any> {
  const res = await sys.authed("/wallet", { key: user.key, headers });
  expect(res.status).toBe(200);
  return res.json();
}

const statuses = (results: ExecuteResult[]) => results.map((r) => r.status).sort((a, b) => a - b);

describe("an agent cannot step out of its budget, over the gateway", () => {
  let sys: BackedSystem;
  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());

  it("a key issued for agent alpha with a 50-credit budget never spends a 51st credit, whatever Agent-Name it sends", async () => {
    const user = await newUser(sys, { agentName: "alpha" });
    await setPolicy(sys, { keyId: user.keyId, agentName: "alpha", budgetCredits: 5 * PRICE });
    const callsBefore = sys.sandbox.control.calls("resend").length;

    const spellings = [undefined, "Alpha", utf8Header("alpha\u200B"), "al\u00ADpha", "ALPHA"];
    const [asAlpha, asBeta] = await Promise.all([
      Promise.all(spellings.flatMap((name) => Array.from({ length: 4 }, () => send(sys, user, name)))),
      Promise.all(Array.from({ length: 4 }, () => send(sys, user, "beta"))),
    ]);
    // Exactly the budget runs, however alpha spells itself; the rest is refused by alpha's policy.
    expect(statuses(asAlpha)).toEqual([...Array(5).fill(200), ...Array(15).fill(403)]);
    expect(asAlpha.filter((r) => r.status === 403).every((r) => r.body.code === "SPEND_LIMIT_EXCEEDED")).toBe(true);
    expect(asAlpha.find((r) => r.status === 403)!.body.error).toContain(`key ${user.keyId} (agent alpha)`);
    // Another agent's name is refused at the edge, naming the header.
    expect(statuses(asBeta)).toEqual(Array(4).fill(400));
    expect(asBeta[0]!.body).toMatchObject({
      code: "INVALID_INPUT",
      error: expect.stringMatching(/^Agent-Name: this API key is agent alpha's and cannot act as beta/),
      hint: expect.stringContaining("npm run keys -- create --agent"),
    });
    expect(sys.sandbox.control.calls("resend").length - callsBefore).toBe(5);

    await settled(sys, user.userId);
    // And afterwards too: not one more credit, under any name.
    for (const name of spellings) expect((await send(sys, user, name)).status).toBe(403);
    expect((await send(sys, user, "beta")).status).toBe(400);
    const seen = await wallet(sys, user);
    expect(seen).toMatchObject({ balanceCredits: 1_000 - 5 * PRICE, reservedCredits: 0 });
    expect(seen.spendPolicies).toEqual([expect.objectContaining({ agentName: "alpha", spentCredits: 50, remainingCredits: 0 })]);
    const charges = (await usage(sys, user)).filter((u) => u.kind === "charge" && u.creditsCharged > 0);
    expect(charges.map((u) => u.agentName)).toEqual(Array(5).fill("alpha"));
    await expectBalanceEqualsJournal(sys, user);

    // Recommend and quote act as the key's agent too.
    const recommendPath = "/domains/email/capabilities/send/recommend";
    expect(await post(sys, user, recommendPath, { agentName: "beta" })).toMatchObject({
      status: 400,
      body: { code: "INVALID_INPUT", error: expect.stringContaining("agentName: this API key is agent alpha's") },
    });
    expect(await post(sys, user, recommendPath, { agentName: 7 })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("agentName must be a string") },
    });
    expect((await post(sys, user, recommendPath, { agentName: "ALPHA\u200B" })).status).toBe(200);
    const advice = await post(sys, user, recommendPath, {});
    expect(advice.status).toBe(200);
    expect(advice.body.blockingRequirements).toContain("SPEND_LIMIT_EXCEEDED");
    const quotePath = "/domains/email/capabilities/send/quote";
    const quoteBody = { to: "ada@example.com", subject: "Report", text: "Hi.", provider: "resend" };
    expect(await post(sys, user, quotePath, quoteBody, { "agent-name": "beta" })).toMatchObject({ status: 400 });
  });

  it("a key requiring one of its agents refuses a request naming none of them; the named agent's own policy binds it", async () => {
    const user = await newUser(sys, { agentNames: { names: ["alpha", "Beta"] } });
    await setPolicy(sys, { keyId: user.keyId, agentName: "beta", budgetCredits: 2 * PRICE });
    const callsBefore = sys.sandbox.control.calls("resend").length;

    const missing = await send(sys, user);
    expect(missing).toMatchObject({
      status: 400,
      body: { code: "INVALID_INPUT", error: "Agent-Name: this API key requires the calling agent's name, one of alpha, beta" },
    });
    expect(await send(sys, user, "gamma")).toMatchObject({
      status: 400,
      body: { error: "Agent-Name: gamma is not one of this API key's agents (alpha, beta)" },
    });
    expect(sys.sandbox.control.calls("resend").length).toBe(callsBefore);

    const asBeta = await Promise.all(["Beta", "BETA", utf8Header("be\u200Cta"), "beta"].map((name) => send(sys, user, name)));
    expect(statuses(asBeta)).toEqual([200, 200, 403, 403]);
    expect((await send(sys, user, "alpha")).status).toBe(200);
    await settled(sys, user.userId);
    expect(await wallet(sys, user, { "agent-name": "BETA" })).toMatchObject({
      balanceCredits: 1_000 - 3 * PRICE,
      spendPolicies: [expect.objectContaining({ agentName: "beta", spentCredits: 20 })],
    });
    // The wallet too is read as one of the key's agents.
    expect((await sys.authed("/wallet", { key: user.key })).status).toBe(400);
    await sys.ledger.assertConsistent([user.userId]);
  });

  it("the default agent policy makes every agent without a policy of its own share one budget, however many names it takes", async () => {
    const user = await newUser(sys);
    await setPolicy(sys, { keyId: user.keyId, otherAgents: true, budgetCredits: 3 * PRICE });
    await setPolicy(sys, { keyId: user.keyId, agentName: "alpha", budgetCredits: 100 * PRICE });

    const names = [undefined, undefined, ...Array.from({ length: 8 }, (_, i) => `fresh-name-${i}`)];
    const cycling = await Promise.all(names.map((name) => send(sys, user, name)));
    expect(statuses(cycling)).toEqual([...Array(3).fill(200), ...Array(7).fill(403)]);
    expect(cycling.find((r) => r.status === 403)!.body.error).toContain("(agents without a policy of their own)");
    // alpha has its own policy: the others' spend does not count there.
    expect((await send(sys, user, "Alpha")).status).toBe(200);

    await settled(sys, user.userId);
    const seen = await wallet(sys, user, { "agent-name": "another-new-name" });
    expect(seen.spendPolicies).toEqual([expect.objectContaining({ otherAgents: true, spentCredits: 30, remainingCredits: 0 })]);
    expect(seen.balanceCredits).toBe(1_000 - 4 * PRICE);
    await expectBalanceEqualsJournal(sys, user);
  });
});
