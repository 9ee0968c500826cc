// Shared by the execute tests: users with their own key and wallet, an execute call that validates
// every answer against the OpenAPI document, and the ledger checks each test ends with.
import { waitFor } from "@agentic/testing";
import { validateResponse as validate } from "./validate-response";
import type { BackedSystem } from "./backed-system";

export const EXECUTE_PATH = "/domains/{domainKey}/capabilities/{capabilityId}/execute";

export interface TestUser {
  userId: string;
  key: string;
}

let users = 0;

/** A new user with an API key and `credits` in the wallet (0: no wallet yet). */
export async function newUser(sys: BackedSystem, credits: number): Promise<TestUser> {
  const userId = `exec-user-${process.pid}-${++users}`;
  const { apiKey } = await sys.ledger.client.createApiKey({ userId, name: "execute tests" });
  if (credits > 0) await sys.ledger.client.grantCredits({ grantId: `grant-${userId}`, userId, amountCredits: credits, reason: "test" });
  return { userId, key: apiKey };
}

export interface ExecuteResult {
  status: number;
  body: any;
  headers: Headers;
}

/**
 * POST .../execute as `user`; fails the test when the answer does not match the OpenAPI document.
 * `body` is sent as JSON unless it is a string (sent as is).
 */
export async function execute(
  sys: BackedSystem,
  user: TestUser,
  domainKey: string,
  capabilityId: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<ExecuteResult> {
  const res = await sys.authed(`/domains/${domainKey}/capabilities/${capabilityId}/execute`, {
    key: user.key,
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const parsed = await res.json();
  const problems = validate("post", EXECUTE_PATH, res.status, parsed);
  if (problems.length > 0)
    throw new Error(`execute answered ${res.status} outside the OpenAPI document: ${problems.join("; ")}\n${JSON.stringify(parsed)}`);
  return { status: res.status, body: parsed, headers: res.headers };
}

/**
 * execute(), asked again while it answers 503 or 504, as a client does with a service that is still
 * warming up (a backend's first calls after start can outrun the deadline on a loaded machine).
 * Send an Idempotency-Key in `headers` where the call may have taken effect; the retry reuses it.
 */
export async function executeOnceWarm(
  sys: BackedSystem,
  user: TestUser,
  domainKey: string,
  capabilityId: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<ExecuteResult> {
  let result: ExecuteResult | undefined;
  await waitFor(
    async () => {
      result = await execute(sys, user, domainKey, capabilityId, body, headers);
      return result.status !== 503 && result.status !== 504;
    },
    { what: `an answer other than 503/504 to ${domainKey}.${capabilityId}`, timeoutMs: 20_000, intervalMs: 100 },
  ).catch((err: Error) => {
    throw new Error(`${err.message}; the last was ${result?.status} ${JSON.stringify(result?.body)}`);
  });
  return result!;
}

/** The wallet balance GET /wallet shows `user`. */
export async function balance(sys: BackedSystem, user: TestUser): Promise<number> {
  const res = await sys.authed("/wallet", { key: user.key });
  return ((await res.json()) as { balanceCredits: number }).balanceCredits;
}

/** GET /usage items of `user`, newest first. */
export async function usage(sys: BackedSystem, user: TestUser): Promise<any[]> {
  const res = await sys.authed("/usage?limit=100", { key: user.key });
  return ((await res.json()) as { items: any[] }).items;
}

/** Resolves once no hold of `userId` is open (every capture or release applied), within `timeoutMs`. */
export async function settled(sys: BackedSystem, userId: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { wallet } = await sys.ledger.client.getWallet({ userId });
    if ((wallet?.heldCredits ?? 0) === 0) return;
    if (Date.now() > until) throw new Error(`holds of ${userId} still open after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits for every hold of `user` to settle, then checks the balance equals the journal (ledger ListJournal). */
export async function expectBalanceEqualsJournal(sys: BackedSystem, user: TestUser): Promise<void> {
  await settled(sys, user.userId);
  const [{ wallet }, journal] = await Promise.all([
    sys.ledger.client.getWallet({ userId: user.userId }),
    sys.ledger.client.listJournal({ userId: user.userId }),
  ]);
  expect(journal.journalBalanceCredits).toBe(wallet?.balanceCredits ?? 0);
  expect(journal.journalHeldCredits).toBe(0);
  expect(await balance(sys, user)).toBe(journal.journalBalanceCredits);
  await sys.ledger.assertConsistent([user.userId]);
}

/** The journal entry kinds of `user`, oldest first. */
export async function journalKinds(sys: BackedSystem, user: TestUser): Promise<string[]> {
  return (await sys.ledger.client.listJournal({ userId: user.userId })).entries.map((e) => e.kind);
}

/** An email.send body. */
export function emailBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { to: "ada@example.com", subject: "Your weekly report", html: "<p>Hi Ada, here it is.</p>", ...extra };
}
