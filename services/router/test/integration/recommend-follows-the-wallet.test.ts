// Recommend reads the wallet through the router's cache, dropped by user on the ledger's announcements
// (ledger.wallet.changed), on the shipped NATS permissions: a warm cache makes no GetWallet call, and
// after a top-up, a hold, its release or a spend policy the next recommend answers from the new wallet.
// A router cut from NATS forgets everything it cached, so an announcement it missed is never served stale.
import { connect, type NatsConnection } from "nats";
import { natsAuthOptions } from "@agentic/platform";
import { startTestCatalog, type TestCatalog } from "@agentic/catalog/testing";
import { publishSettlement, SettlementKind, startTestLedger, type TestLedger } from "@agentic/ledger/testing";
import type { RecommendRequest, RecommendResponse } from "@agentic/proto/router/v1";
import { startNatsServer, startTestSystem, waitFor, type NatsServerHandle } from "@agentic/testing";
import { startTestRouter, type TestRouter } from "../harness";
import { FIXTURE_CATALOG_DIR } from "../system";
import { startTcpProxy, type TcpProxy } from "../tcp-proxy";

interface Parts {
  nats: NatsServerHandle;
  catalog: TestCatalog;
  ledger: TestLedger;
  /** Connected to NATS directly. */
  router: TestRouter;
  /** Connected to NATS through `proxy`, which the test cuts. */
  cutOff: TestRouter;
  proxy: TcpProxy;
  /** The executor's NATS user (it alone publishes settlements). */
  executorNc: NatsConnection;
  stop(): Promise<void>;
}

let parts: Parts;
let userSeq = 0;
const newUser = () => `wallet-user-${++userSeq}`;

beforeAll(async () => {
  parts = await startTestSystem(async (stack) => {
    const nats = await stack.start(startNatsServer({ authorization: true }));
    const catalog = await stack.start(startTestCatalog({ catalogDir: FIXTURE_CATALOG_DIR }));
    const ledger = await stack.start(startTestLedger({ natsUrl: nats.url, natsCredentials: nats.users!.ledger }));
    const proxy = await stack.start(startTcpProxy(nats.port));
    const { user, pass } = nats.users!.router;
    const routerOn = (natsUrl: string) =>
      stack.start(
        startTestRouter({
          catalogAddress: catalog.address,
          ledgerAddress: ledger.address,
          natsUrl,
          env: { NATS_USER: user, NATS_PASSWORD: pass },
        }),
      );
    const router = await routerOn(nats.url);
    const cutOff = await routerOn(`nats://127.0.0.1:${proxy.port}`);
    const executorNc = await stack.start(
      connect({ servers: nats.url, name: "test-executor", ...natsAuthOptions(nats.users!.executor) }).then((nc) =>
        Object.assign(nc, { stop: () => nc.close() }),
      ),
    );
    return { nats, catalog, ledger, router, cutOff, proxy, executorNc };
  });
}, 60_000);
afterAll(() => parts?.stop());

const recommend = (router: TestRouter, req: Partial<RecommendRequest> & { userId: string }) =>
  router.client.recommend({ domainKey: "email", capabilityId: "send", input: {}, optimizationPreferences: [], ...req });
/** What recommend says of the managed resend route, 10 credits. */
const resend = (res: RecommendResponse) => res.candidates.find((c) => c.routeKey === "email.send.resend")!.blockingRequirements;

/** Runs `change` and resolves once `router` has applied the ledger's announcement of `userId` that followed. */
async function announced(router: TestRouter, userId: string, change: () => Promise<unknown>): Promise<void> {
  const seen = router.nextWalletAnnouncement(userId);
  seen.catch(() => undefined); // a change that throws fails the test itself
  await change();
  await seen;
}

const grant = (userId: string, amountCredits: number) =>
  parts.ledger.client.grantCredits({ grantId: `grant-${userId}-${amountCredits}-${Date.now()}`, userId, amountCredits, reason: "test" });

describe("recommend follows the wallet", () => {
  it("answers a repeated recommend from the cache, with no GetWallet call", async () => {
    const { router } = parts;
    const userId = newUser();
    await announced(router, userId, () => grant(userId, 100));
    const reads = router.walletReads;
    expect(resend(await recommend(router, { userId }))).toEqual([]);
    expect(router.walletReads).toBe(reads + 1);
    for (let i = 0; i < 3; i++) expect(resend(await recommend(router, { userId }))).toEqual([]);
    expect(router.walletReads).toBe(reads + 1);
    // Another agent has policies of its own: a read of its own, then cached too.
    await recommend(router, { userId, input: { agentName: "beta" } });
    await recommend(router, { userId, input: { agentName: "beta" } });
    expect(router.walletReads).toBe(reads + 2);
    expect(router.app.walletCache.stats.hits).toBeGreaterThanOrEqual(4);
  });

  it("shows a top-up on the next recommend", async () => {
    const { router } = parts;
    const userId = newUser();
    await announced(router, userId, () => grant(userId, 5));
    expect(resend(await recommend(router, { userId }))).toEqual(["CREDITS_REQUIRED"]);
    expect(resend(await recommend(router, { userId }))).toEqual(["CREDITS_REQUIRED"]); // cached
    const reads = router.walletReads;
    await announced(router, userId, () => grant(userId, 20));
    expect(resend(await recommend(router, { userId }))).toEqual([]);
    expect(router.walletReads).toBe(reads + 1);
  });

  it("shows a hold, and its release from the bus, on the next recommend", async () => {
    const { router, ledger, executorNc } = parts;
    const userId = newUser();
    await announced(router, userId, () => grant(userId, 15));
    expect(resend(await recommend(router, { userId }))).toEqual([]);
    const holdId = `att_${userId}`;
    await announced(router, userId, () =>
      ledger.client.holdCredits({ holdId, userId, amountCredits: 10, ttlMs: 0, routeKey: "email.send.resend" }),
    );
    expect(resend(await recommend(router, { userId }))).toEqual(["CREDITS_REQUIRED"]);
    const release = { holdId, userId, kind: SettlementKind.SETTLEMENT_KIND_RELEASE, capturedCredits: 0 };
    await announced(router, userId, () => publishSettlement(executorNc, release));
    expect(resend(await recommend(router, { userId }))).toEqual([]);
  });

  it("shows a spend policy set on the key or on an agent, and cleared, on the next recommend", async () => {
    const { router, ledger } = parts;
    const userId = newUser();
    await announced(router, userId, () => grant(userId, 1_000));
    let keyId = "";
    await announced(router, userId, async () => (keyId = (await ledger.client.createApiKey({ userId, name: "policy" })).key!.keyId));
    const asKey = (agentName?: string) => recommend(router, { userId, keyId, input: agentName ? { agentName } : {} });
    expect(resend(await asKey())).toEqual([]);
    expect(resend(await asKey("alpha"))).toEqual([]);

    const keyBudget = { keyId, budgetCredits: 5, reset: "daily", capabilityCaps: [] };
    await announced(router, userId, () => ledger.client.setSpendPolicy({ policy: keyBudget, clear: false }));
    expect(resend(await asKey())).toEqual(["SPEND_LIMIT_EXCEEDED"]);
    await announced(router, userId, () => ledger.client.setSpendPolicy({ policy: keyBudget, clear: true }));
    expect(resend(await asKey())).toEqual([]);

    const alphaBudget = { ...keyBudget, agentName: "alpha" };
    await announced(router, userId, () => ledger.client.setSpendPolicy({ policy: alphaBudget, clear: false }));
    expect(resend(await asKey("alpha"))).toEqual(["SPEND_LIMIT_EXCEEDED"]);
    expect(resend(await asKey())).toEqual([]);
    await announced(router, userId, () => ledger.client.setSpendPolicy({ policy: alphaBudget, clear: true }));
    expect(resend(await asKey("alpha"))).toEqual([]);
  });

  it("never answers from what it cached before a disconnection: an announcement it missed cannot leave a stale wallet", async () => {
    const { router, cutOff, proxy } = parts;
    const userId = newUser();
    await announced(cutOff, userId, () => grant(userId, 5));
    expect(resend(await recommend(cutOff, { userId }))).toEqual(["CREDITS_REQUIRED"]);
    expect(resend(await recommend(cutOff, { userId }))).toEqual(["CREDITS_REQUIRED"]); // cached
    expect(cutOff.app.walletCache.size).toBeGreaterThan(0);

    proxy.cut();
    try {
      await waitFor(() => !cutOff.app.walletCache.isLive, { what: "the cut-off router's cache bypassed" });
      expect(cutOff.app.walletCache.size).toBe(0);
      // Announced while the cut-off router cannot hear it (the other router does).
      await announced(router, userId, () => grant(userId, 20));
    } finally {
      proxy.restore(); // also when an expectation failed: a router cut from NATS could not stop
    }
    await waitFor(() => cutOff.app.walletCache.isLive, { timeoutMs: 10_000, what: "the cut-off router reconnected" });

    const reads = cutOff.walletReads;
    expect(resend(await recommend(cutOff, { userId }))).toEqual([]);
    expect(cutOff.walletReads).toBe(reads + 1);
  });
});
