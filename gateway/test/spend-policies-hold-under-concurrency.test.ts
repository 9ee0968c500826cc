// Scenario: spend policies over the whole execute path (gateway, executor, router, catalog, ledger,
// provider sandbox, nats-server). Each limit is tested with parallel executes (distinct
// Idempotency-Keys): exactly what the limit allows runs and is charged, the rest answer 403
// SPEND_LIMIT_EXCEEDED (or 409 PRICE_ABOVE_MAX) with a hint naming the limit, what remains and when it
// resets, before any hold or provider call. The ledger's clock is moved a day on to prove the reset.
import { startNatsServer, startTestSystem } from "@agentic/testing";
import { startSandbox } from "@agentic/sandbox";
import { startTestCatalog } from "@agentic/catalog/testing";
import { startTestLedger } from "@agentic/ledger/testing";
import { startTestRouter } from "@agentic/router/testing";
import { startTestExecutor } from "@agentic/executor/testing";
import type { SpendPolicy } from "@agentic/proto/ledger/v1";
import { startTestGateway } from "./harness";
import type { BackedSystem } from "./backed-system";
import { executeOnceWarm, expectBalanceEqualsJournal, settled, usage, type ExecuteResult, type TestUser } from "./execute-helpers";

const DAY_MS = 24 * 60 * 60 * 1000;
const PRICE = 10; // email.send on resend
/** How far the ledger's clock runs ahead of the real one (moved to cross midnight). */
let clockShiftMs = 0;

async function startSystem(): Promise<BackedSystem> {
  return startTestSystem(async (stack) => {
    const nats = await stack.start(startNatsServer());
    const sandbox = await stack.start(startSandbox({ port: 0 }));
    const catalog = await stack.start(startTestCatalog());
    const ledger = await stack.start(startTestLedger({ natsUrl: nats.url, clock: () => new Date(Date.now() + clockShiftMs) }));
    const router = await stack.start(
      startTestRouter({ catalogAddress: catalog.address, ledgerAddress: ledger.address, natsUrl: nats.url }),
    );
    const executor = await stack.start(
      startTestExecutor({
        catalogAddress: catalog.address,
        ledgerAddress: ledger.address,
        natsUrl: nats.url,
        sandboxUrl: sandbox.url,
      }),
    );
    const gw = await stack.start(
      startTestGateway({
        catalogAddress: catalog.address,
        ledgerAddress: ledger.address,
        routerAddress: router.address,
        executorAddress: executor.address,
      }),
    );
    return {
      nats,
      sandbox,
      catalog,
      ledger,
      router,
      executor,
      gw,
      authed(path: string, init: RequestInit & { key?: string } = {}) {
        const { key, ...rest } = init;
        return fetch(gw.baseUrl + path, { ...rest, headers: { authorization: `Bearer ${key}`, ...(rest.headers ?? {}) } });
      },
      stop: () => stack.stop(),
    };
  });
}

let users = 0;
interface PolicyUser extends TestUser {
  keyId: string;
}

async function newUser(sys: BackedSystem, credits: number): Promise<PolicyUser> {
  const userId = `spend-user-${process.pid}-${++users}`;
  const { apiKey, key } = await sys.ledger.client.createApiKey({ userId, name: "spend policy tests" });
  await sys.ledger.client.grantCredits({ grantId: `grant-${userId}`, userId, amountCredits: credits, reason: "test" });
  return { userId, key: apiKey, keyId: key!.keyId };
}

const setPolicy = (sys: BackedSystem, policy: Partial<SpendPolicy> & { keyId: string }) =>
  sys.ledger.client.setSpendPolicy({ policy: { reset: "daily", capabilityCaps: [], ...policy }, clear: false });

let sent = 0;
/** One email.send on resend under a fresh Idempotency-Key; a cold-start 503/504 is asked again with the same key, as a client would. */
async function send(sys: BackedSystem, user: TestUser, headers: Record<string, string> = {}): Promise<ExecuteResult> {
  const idempotencyKey = `spend-${process.pid}-${++sent}`;
  const body = { to: "ada@example.com", subject: "Report", text: "Hi.", provider: "resend" };
  return executeOnceWarm(sys, user, "email", "send", body, { "idempotency-key": idempotencyKey, ...headers });
}

async function wallet(sys: BackedSystem, user: TestUser, headers: Record<string, string> = {}): Promise<any> {
  const res = await sys.authed("/wallet", { key: user.key, headers });
  expect(res.status).toBe(200);
  return res.json();
}

const statuses = (results: ExecuteResult[]) => results.map((r) => r.status).sort((a, b) => a - b);
const nextUtcMidnight = (now: number) => new Date(Math.floor(now / DAY_MS) * DAY_MS + DAY_MS).toISOString();

describe("spend policies hold under concurrency, over the gateway", () => {
  let sys: BackedSystem;
  beforeAll(async () => {
    sys = await startSystem();
  });
  afterAll(() => sys?.stop());

  it("lets exactly the budget through 30 parallel executes, refuses the rest with 403 before any provider call, and resets the next UTC day", async () => {
    const user = await newUser(sys, 1_000);
    await setPolicy(sys, { keyId: user.keyId, budgetCredits: 10 * PRICE });
    const callsBefore = sys.sandbox.control.calls("resend").length;

    const results = await Promise.all(Array.from({ length: 30 }, () => send(sys, user)));
    expect(statuses(results)).toEqual([...Array(10).fill(200), ...Array(20).fill(403)]);
    const refused = results.filter((r) => r.status === 403);
    expect(refused.every((r) => r.body.code === "SPEND_LIMIT_EXCEEDED")).toBe(true);
    const resetsAt = nextUtcMidnight(Date.now() + clockShiftMs);
    expect(refused[0]!.body.hint).toContain(`The budget of key ${user.keyId} has 0 of 100 credits left until ${resetsAt}, when it resets`);
    expect(refused[0]!.body.error).toContain(`the budget of key ${user.keyId}: 100 credits, 0 credits left`);
    expect(sys.sandbox.control.calls("resend").length - callsBefore).toBe(10);

    await settled(sys, user.userId);
    const before = await wallet(sys, user);
    expect(before).toMatchObject({ balanceCredits: 900, reservedCredits: 0 });
    expect(before.spendPolicies).toEqual([
      expect.objectContaining({
        keyId: user.keyId,
        reset: "daily",
        budgetCredits: 100,
        spentCredits: 100,
        heldCredits: 0,
        remainingCredits: 0,
        resetsAt,
      }),
    ]);
    const charges = (await usage(sys, user)).filter((u) => u.kind === "charge" && u.creditsCharged === PRICE);
    expect(charges).toHaveLength(10);
    // Each usage item carries the executor's decision, stored with it by the ledger.
    expect(charges.every((u) => typeof u.decision === "object" && u.decision.servedRouteKey === "email.send.resend")).toBe(true);
    await expectBalanceEqualsJournal(sys, user);

    // Recommend says so before an execute would be refused: the spent budget blocks every paid route.
    const recommended = await sys.authed("/domains/email/capabilities/send/recommend", {
      key: user.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const advice = (await recommended.json()) as { canExecuteNow: boolean; blockingRequirements: string[]; nextActions: string[] };
    expect(recommended.status).toBe(200);
    expect(advice.canExecuteNow).toBe(false);
    expect(advice.blockingRequirements).toContain("SPEND_LIMIT_EXCEEDED");
    expect(advice.nextActions.join("\n")).toContain(`The spend policy of key ${user.keyId} has 0 credits left until ${resetsAt}`);
    // Another key of the same user has no policy: recommend weighs the calling key's policies only, as its hold would.
    const { apiKey: otherKey } = await sys.ledger.client.createApiKey({ userId: user.userId, name: "no policy" });
    const unlimited = await sys.authed("/domains/email/capabilities/send/recommend", {
      key: otherKey,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const free = (await unlimited.json()) as {
      bestExecutableRouteKey?: string;
      candidates: Array<{ routeKey: string; blockingRequirements: string[] }>;
    };
    expect([unlimited.status, free.bestExecutableRouteKey]).toEqual([200, "email.send.resend"]);
    expect(free.candidates.filter((c) => c.blockingRequirements.includes("SPEND_LIMIT_EXCEEDED"))).toEqual([]);

    // The next UTC day the budget is whole again.
    clockShiftMs += DAY_MS;
    const nextDay = await Promise.all(Array.from({ length: 12 }, () => send(sys, user)));
    expect(statuses(nextDay)).toEqual([...Array(10).fill(200), ...Array(2).fill(403)]);
    await settled(sys, user.userId);
    expect(await wallet(sys, user)).toMatchObject({ balanceCredits: 800, spendPolicies: [expect.objectContaining({ spentCredits: 100 })] });
    await expectBalanceEqualsJournal(sys, user);
  });

  it("keeps each agent (Agent-Name) under one key to its own budget", async () => {
    const user = await newUser(sys, 1_000);
    await setPolicy(sys, { keyId: user.keyId, agentName: "alpha", budgetCredits: 2 * PRICE });
    await setPolicy(sys, { keyId: user.keyId, agentName: "beta", budgetCredits: 3 * PRICE });

    const [alpha, beta, unnamed] = await Promise.all([
      Promise.all(Array.from({ length: 8 }, () => send(sys, user, { "agent-name": "alpha" }))),
      Promise.all(Array.from({ length: 8 }, () => send(sys, user, { "agent-name": "beta" }))),
      Promise.all(Array.from({ length: 4 }, () => send(sys, user))),
    ]);
    expect(statuses(alpha)).toEqual([...Array(2).fill(200), ...Array(6).fill(403)]);
    expect(statuses(beta)).toEqual([...Array(3).fill(200), ...Array(5).fill(403)]);
    expect(statuses(unnamed)).toEqual(Array(4).fill(200)); // no key-wide policy
    expect(alpha.find((r) => r.status === 403)!.body.error).toContain("(agent alpha)");

    await settled(sys, user.userId);
    const seenByAlpha = await wallet(sys, user, { "agent-name": "alpha" });
    expect(seenByAlpha.spendPolicies).toEqual([expect.objectContaining({ agentName: "alpha", spentCredits: 20, remainingCredits: 0 })]);
    expect(seenByAlpha.balanceCredits).toBe(1_000 - 9 * PRICE);
    await expectBalanceEqualsJournal(sys, user);
  });

  it("caps one capability by count and by credits per period, and refuses a price above the key's maximum with 409 PRICE_ABOVE_MAX", async () => {
    const user = await newUser(sys, 1_000);
    await setPolicy(sys, { keyId: user.keyId, capabilityCaps: [{ capabilityKey: "email.send", maxCount: 4 }] });
    const capped = await Promise.all(Array.from({ length: 10 }, () => send(sys, user)));
    expect(statuses(capped)).toEqual([...Array(4).fill(200), ...Array(6).fill(403)]);
    expect(capped.find((r) => r.status === 403)!.body.error).toContain("execution count cap on email.send");

    const creditCapped = await newUser(sys, 1_000);
    await setPolicy(sys, { keyId: creditCapped.keyId, capabilityCaps: [{ capabilityKey: "email.send", maxCredits: 3 * PRICE + 5 }] });
    const byCredits = await Promise.all(Array.from({ length: 8 }, () => send(sys, creditCapped)));
    expect(statuses(byCredits)).toEqual([...Array(3).fill(200), ...Array(5).fill(403)]);
    expect(byCredits.find((r) => r.status === 403)!.body.error).toContain("credit cap on email.send");

    const pricey = await newUser(sys, 1_000);
    await setPolicy(sys, { keyId: pricey.keyId, maxPriceCredits: PRICE - 1 });
    const callsBefore = sys.sandbox.control.calls("resend").length;
    const refused = await Promise.all(Array.from({ length: 5 }, () => send(sys, pricey)));
    expect(statuses(refused)).toEqual(Array(5).fill(409));
    expect(refused.every((r) => r.body.code === "PRICE_ABOVE_MAX" && r.body.hint.includes("--max-price"))).toBe(true);
    expect(sys.sandbox.control.calls("resend").length).toBe(callsBefore);
    expect(await wallet(sys, pricey)).toMatchObject({ balanceCredits: 1_000, reservedCredits: 0 });

    await settled(sys, user.userId);
    await expectBalanceEqualsJournal(sys, user);
    await expectBalanceEqualsJournal(sys, creditCapped);
    await expectBalanceEqualsJournal(sys, pricey);
  });

  it("counts an open quote against the key's budget: ten quotes with room for five reserve five prices, the rest are refused with 403", async () => {
    const user = await newUser(sys, 1_000);
    await setPolicy(sys, { keyId: user.keyId, budgetCredits: 5 * PRICE });
    const quote = () =>
      sys.authed("/domains/email/capabilities/send/quote", {
        key: user.key,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ to: "ada@example.com", subject: "Report", text: "Hi.", provider: "resend" }),
      });
    const answers = await Promise.all(Array.from({ length: 10 }, () => quote()));
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as { code?: string; hint?: string; blockingRequirements?: string[] }[];
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 403, 403, 403, 403, 403]);
    expect(bodies.filter((b) => b.code === "SPEND_LIMIT_EXCEEDED")).toHaveLength(5);
    expect(bodies.find((b) => b.code === "SPEND_LIMIT_EXCEEDED")?.hint).toContain(
      `The budget of key ${user.keyId} has 0 of ${5 * PRICE} credits left`,
    );
    expect(bodies.filter((b) => b.blockingRequirements !== undefined).every((b) => b.blockingRequirements!.length === 0)).toBe(true);
    // The open reservations are what the policy has spent; an execute without a quote finds no room.
    const seen = await wallet(sys, user);
    expect(seen.spendPolicies).toEqual([expect.objectContaining({ spentCredits: 5 * PRICE, remainingCredits: 0 })]);
    expect(seen.reservedCredits).toBe(5 * PRICE);
    expect((await send(sys, user)).status).toBe(403);
  });

  it("caps a key's open quotes: past 20 a quote is 429 TOO_MANY_OPEN_QUOTES and reserves nothing; an executed one frees its place", async () => {
    const user = await newUser(sys, 1_000);
    const quote = async () => {
      const r = await sys.authed("/domains/email/capabilities/send/quote", {
        key: user.key,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ to: "ada@example.com", subject: "Report", text: "Hi.", provider: "resend" }),
      });
      return {
        status: r.status,
        retryAfter: r.headers.get("retry-after"),
        body: (await r.json()) as { code?: string; hint?: string; quoteId?: string },
      };
    };
    const quotes = [];
    for (let i = 0; i < 20; i++) quotes.push(await quote());
    expect(quotes.map((q) => q.status)).toEqual(Array(20).fill(200));
    const refused = await quote();
    expect([refused.status, refused.body.code]).toEqual([429, "TOO_MANY_OPEN_QUOTES"]);
    expect(refused.body.hint).toContain("Execute or let expire an open quote");
    expect(refused.retryAfter).toBe("60");
    expect(await wallet(sys, user)).toMatchObject({ balanceCredits: 1_000 - 20 * PRICE, reservedCredits: 20 * PRICE });
    const executed = await sys.authed("/domains/email/capabilities/send/execute", {
      key: user.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ to: "ada@example.com", subject: "Report", text: "Hi.", provider: "resend", quoteId: quotes[0]!.body.quoteId }),
    });
    expect(executed.status).toBe(200);
    expect((await quote()).status).toBe(200);
  });
});
