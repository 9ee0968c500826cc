// kill -9 of the embedded ledger (SQLite) at random moments under load loses nothing: every key's
// retry ends in one answer, the wallet equals what the provider was paid for, a key revocation and
// every charge survive, and no client ever sees a 500 (a ledger restart is a 503).
import { createLedgerClient } from "@agentic/clients";
import { serviceIdentity } from "@agentic/platform";
import { waitFor } from "@agentic/testing";
import { startControlledSystem, type ControlledSystem } from "./support/controlled-system";
import { FAULT_TEST_ENV } from "./support/fault-env";
import { providerCallCount } from "./support/sandbox-control";

const ENV = {
  ...FAULT_TEST_ENV,
  IDEMPOTENCY_WAIT_MS: "2000",
  // Longer than the settlement consumer's ack wait (30 s): a capture the killed ledger had taken but
  // not acknowledged is redelivered only then, and must find its hold still held (as in production,
  // where holds live 120 s); a hold that expired first would be a capture not charged.
  HOLD_TTL_MS: "45000",
};
const PRICE = 10; // email.send on resend
const GRANT = 5_000;
const ROUNDS = 3;
const PER_ROUND = 40;
const CONCURRENCY = 8;

let sys: ControlledSystem;
const api = (path: string, init: RequestInit & { key?: string; bearer?: string } = {}) =>
  fetch(`${sys.baseUrl}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${init.bearer ?? sys.apiKey}`,
      "content-type": "application/json",
      ...(init.key ? { "idempotency-key": init.key } : {}),
    },
  });
const send = (key: string) =>
  api("/domains/email/capabilities/send/execute", {
    method: "POST",
    key,
    body: JSON.stringify({ to: "ada@example.com", subject: "Load", text: key, provider: "resend" }),
  });
const resendCalls = () => providerCallCount(sys, "resend");

beforeAll(async () => {
  sys = await startControlledSystem(ENV);
}, 90_000);
afterAll(() => sys?.stop());

it("loses no credit, hold, usage item, revocation or answer, and never answers 500", async () => {
  expect((await api("/dev/init", { method: "POST", body: JSON.stringify({ balanceCredits: GRANT }) })).status).toBe(200);
  const admin = serviceIdentity("admin", sys.adminIdentityKey);
  const ledger = createLedgerClient(`127.0.0.1:${sys.ports.ledger!.port}`, 5_000, admin);
  const { apiKey: revokedKey, key } = await ledger.createApiKey({ userId: "revoked-user", name: "to revoke" });
  await ledger.revokeApiKey({ keyId: key!.keyId });
  ledger.close();

  const statuses = new Map<number, number>();
  const keys: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const roundKeys = Array.from({ length: PER_ROUND }, (_, i) => `load-${round}-${i}`);
    keys.push(...roundKeys);
    let next = 0;
    const workers = Array.from({ length: CONCURRENCY }, async () => {
      while (next < roundKeys.length) {
        const res = await send(roundKeys[next++]!);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        await res.arrayBuffer();
      }
    });
    // The kill lands at a random moment of the round.
    const killer = (async () => {
      await new Promise((r) => setTimeout(r, 50 + Math.floor(Math.random() * 400)));
      await sys.kill("ledger");
      await sys.restart("ledger");
    })();
    await Promise.all([...workers, killer]);
  }
  expect(statuses.get(500)).toBeUndefined();
  expect([...statuses.keys()].every((s) => [200, 409, 503, 504].includes(s))).toBe(true);

  // Every key ends in one answer: its replay (200), or a final error; 409 and 503 mean not yet.
  const finals = new Map<string, number>();
  await waitFor(
    async () => {
      for (const k of keys) {
        if (finals.has(k)) continue;
        const res = await send(k);
        await res.arrayBuffer();
        if (res.status !== 409 && res.status !== 503) finals.set(k, res.status);
      }
      return finals.size === keys.length;
    },
    { what: "every key to reach its final answer", timeoutMs: 120_000, intervalMs: 500 },
  );
  const succeeded = [...finals.values()].filter((s) => s === 200).length;
  const unknown = [...finals.values()].filter((s) => s === 502).length;
  expect(succeeded + unknown).toBe(keys.length);

  // Every hold settles: captures a killed ledger had taken unacknowledged come back after the ack wait.
  const audit = createLedgerClient(`127.0.0.1:${sys.ports.ledger!.port}`, 5_000, admin);
  await waitFor(async () => (await audit.listJournal({ userId: "dev-user" })).journalHeldCredits === 0, {
    what: "every hold to settle",
    timeoutMs: 90_000,
    intervalMs: 500,
  });
  const wallet = (await (await api("/wallet")).json()) as { balanceCredits: number };
  expect(wallet.balanceCredits).toBe(GRANT - PRICE * succeeded);
  // At most one provider call per key: every charged key, plus some of the unknown ones (never
  // charged; an attempt whose hold the ledger wrote just before it died is one the provider never saw).
  const calls = await resendCalls();
  expect(calls).toBeGreaterThanOrEqual(succeeded);
  expect(calls).toBeLessThanOrEqual(succeeded + unknown);
  // The journal agrees: one capture per success, nothing left held, wallet = journal.
  const journal = await audit.listJournal({ userId: "dev-user" });
  audit.close();
  expect(journal.entries.filter((e) => e.kind === "capture")).toHaveLength(succeeded);
  expect(journal.journalBalanceCredits).toBe(wallet.balanceCredits);
  expect(journal.journalHeldCredits).toBe(0);
  // Usage items survived too: every charge has its item.
  const usage = (await (await api("/usage?limit=100")).json()) as { items: { creditsCharged: number }[] };
  expect(usage.items.filter((i) => i.creditsCharged === PRICE).length).toBeGreaterThanOrEqual(
    Math.min(succeeded, 100) - (keys.length - succeeded),
  );
  // The revocation survived every kill.
  expect((await api("/wallet", { bearer: revokedKey })).status).toBe(401);
}, 300_000);
