// Two router replicas on one real nats-server, running the shipped NATS permissions: what one learns
// (an agent's preferences, an answered recommendation) the other answers the same, because both live
// in the KV buckets they share; a replica on a newer catalog refuses an older answer as stale.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { status } from "@grpc/grpc-js";
import { connect, type NatsConnection } from "nats";
import { fromServiceError, natsAuthOptions } from "@agentic/platform";
import { startTestCatalog, type TestCatalog } from "@agentic/catalog/testing";
import { startTestLedger, type TestLedger } from "@agentic/ledger/testing";
import type { RecommendRequest } from "@agentic/proto/router/v1";
import { startNatsServer, startTestSystem, type NatsServerHandle } from "@agentic/testing";
import { publishOutcome, startTestRouter, type TestRouter } from "../harness";
import { FIXTURE_CATALOG_DIR } from "../system";

const USER = "user-shared";
const OTHER_USER = "user-other";

interface Replicas {
  nats: NatsServerHandle;
  catalog: TestCatalog;
  ledger: TestLedger;
  a: TestRouter;
  b: TestRouter;
  /** A router on the same NATS and ledger, on the given catalog, connected as the `router` NATS user. */
  addRouter(catalogAddress: string, env?: Record<string, string>): Promise<TestRouter>;
  stop(): Promise<void>;
}

/** nats-server with the shipped permissions, the fixture catalog, a ledger, and routers A and B. */
function startReplicas(env: Record<string, string> = {}): Promise<Replicas> {
  return startTestSystem(async (stack) => {
    const nats = await stack.start(startNatsServer({ authorization: true }));
    const catalog = await stack.start(startTestCatalog({ catalogDir: FIXTURE_CATALOG_DIR }));
    const ledger = await stack.start(
      startTestLedger({ natsUrl: nats.url, natsCredentials: nats.users!.ledger, grants: { [USER]: 1_000, [OTHER_USER]: 1_000 } }),
    );
    const router = nats.users!.router;
    const addRouter = (catalogAddress: string, extra: Record<string, string> = {}) =>
      stack.start(
        startTestRouter({
          catalogAddress,
          ledgerAddress: ledger.address,
          natsUrl: nats.url,
          env: { NATS_USER: router.user, NATS_PASSWORD: router.pass, ...env, ...extra },
        }),
      );
    const a = await addRouter(catalog.address);
    const b = await addRouter(catalog.address);
    return { nats, catalog, ledger, a, b, addRouter };
  });
}

const emailSend = (req: Partial<RecommendRequest>): RecommendRequest => ({
  userId: USER,
  domainKey: "email",
  capabilityId: "send",
  input: {},
  optimizationPreferences: [],
  ...req,
});

/** The public error of a failed call (its AppError code), with the gRPC status it travelled as. */
async function refusal(call: Promise<unknown>): Promise<{ grpc: number; code: string }> {
  const err = await call.then(
    () => {
      throw new Error("expected the call to be refused");
    },
    (e: unknown) => e as { code: number },
  );
  return { grpc: err.code, code: fromServiceError(err as never).code };
}

describe("two router replicas sharing NATS", () => {
  let sys: Replicas;
  beforeAll(async () => {
    sys = await startReplicas();
  });
  afterAll(() => sys?.stop());

  it("rank the same for an agent whose preferences were given to the other replica", async () => {
    // Under the default goals (cost, reliability) the cheapest route leads; under quality another one does.
    const fresh = await sys.b.client.recommend(emailSend({ input: { agentName: "quality-agent" } }));
    expect(fresh).toMatchObject({ preferenceSource: "default", recommendedRouteKey: "email.send.mailgun" });

    const atA = await sys.a.client.recommend(emailSend({ input: { agentName: "quality-agent", optimizationPreferences: ["quality"] } }));
    expect(atA).toMatchObject({ preferenceSource: "request", recommendedRouteKey: "email.send.resend" });

    const atB = await sys.b.client.recommend(emailSend({ input: { agentName: "quality-agent" } }));
    expect(atB).toMatchObject({ preferenceSource: "agent", optimizationPreferences: ["quality"] });
    expect(atB.candidates).toEqual(atA.candidates);

    // Another user's agent of the same name remembers nothing.
    const other = await sys.b.client.recommend(emailSend({ userId: OTHER_USER, input: { agentName: "quality-agent" } }));
    expect(other.preferenceSource).toBe("default");
  });

  it("explicit optimization_preferences win over the body's and the remembered ones, and are remembered", async () => {
    const explicit = await sys.a.client.recommend(
      emailSend({ input: { agentName: "explicit-agent", optimizationPreferences: ["cost"] }, optimizationPreferences: ["quality"] }),
    );
    expect(explicit).toMatchObject({ preferenceSource: "request", optimizationPreferences: ["quality"] });
    const remembered = await sys.b.client.recommend(emailSend({ input: { agentName: "explicit-agent" } }));
    expect(remembered).toMatchObject({ preferenceSource: "agent", optimizationPreferences: ["quality"] });
  });

  it("refuses unknown explicit preferences by field", async () => {
    const refused = await refusal(sys.a.client.recommend(emailSend({ optimizationPreferences: ["cheap"] })));
    expect(refused).toEqual({ grpc: status.INVALID_ARGUMENT, code: "INVALID_INPUT" });
  });

  it("admit at most AGENT_NAMES_PER_USER_MAX agent names per user between them, however many arrive at once", async () => {
    const [c, d] = [
      await sys.addRouter(sys.catalog.address, { AGENT_NAMES_PER_USER_MAX: "3" }),
      await sys.addRouter(sys.catalog.address, { AGENT_NAMES_PER_USER_MAX: "3" }),
    ];
    const userId = "user-many-agents";
    const answers = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? c : d).client.recommend(emailSend({ userId, input: { agentName: `agent-${i}`, optimizationPreferences: ["speed"] } })),
      ),
    );
    expect(answers.filter((a) => a.status === "fulfilled")).toHaveLength(3);
    for (const refused of answers.filter((a): a is PromiseRejectedResult => a.status === "rejected")) {
      expect({ grpc: refused.reason.code, code: fromServiceError(refused.reason).code }).toEqual({
        grpc: status.FAILED_PRECONDITION,
        code: "AGENT_NAMES_EXHAUSTED",
      });
    }
    // The bucket the names live in is bounded like the recommendations' (oldest values dropped first when full).
    const bucket = await (await sys.a.nc.jetstreamManager()).streams.info("KV_router_preferences");
    expect(bucket.config).toMatchObject({ max_bytes: 256 * 1024 ** 2, discard: "old" });
  });

  it("answer GetRecommendation from the other replica with the identical ranking", async () => {
    const answered = await sys.a.client.recommend(emailSend({ input: { optimizationPreferences: ["speed"] } }));
    expect(answered.recommendationId).toMatch(/^rec_[0-9a-f-]{36}$/);
    const expiresInMs = Date.parse(answered.recommendationExpiresAt) - Date.now();
    expect(expiresInMs).toBeGreaterThan(0);
    expect(expiresInMs).toBeLessThanOrEqual(600_000);

    const { recommendation } = await sys.b.client.getRecommendation({ recommendationId: answered.recommendationId, userId: USER });
    expect(recommendation).toEqual(answered);
  });

  it("do not store a ranking-only answer (the executor's), and keep the store bounded, oldest answers dropped first", async () => {
    const ranking = await sys.a.client.recommend(emailSend({ rankingOnly: true }));
    expect(ranking.recommendationId).toBe("");
    expect(ranking.recommendationExpiresAt).toBe("");
    const bucket = await (await sys.a.nc.jetstreamManager()).streams.info("KV_router_recommendations");
    expect(bucket.config).toMatchObject({ max_bytes: 256 * 1024 ** 2, discard: "old", max_age: 2 * 600_000 * 1_000_000 });
  });

  it("answer another user's, an unknown or a malformed id as RECOMMENDATION_NOT_FOUND", async () => {
    const { recommendationId } = await sys.a.client.recommend(emailSend({}));
    for (const [id, user] of [
      [recommendationId, OTHER_USER],
      ["rec_00000000-0000-0000-0000-000000000000", USER],
      ["../../$KV.router_preferences.>", USER],
    ] as const) {
      expect(await refusal(sys.b.client.getRecommendation({ recommendationId: id, userId: user }))).toEqual({
        grpc: status.NOT_FOUND,
        code: "RECOMMENDATION_NOT_FOUND",
      });
    }
  });

  it("rank a route above maxPriceCredits as not executable, with its reason code", async () => {
    const res = await sys.a.client.recommend(emailSend({ input: { optimizationPreferences: ["quality"] }, maxPriceCredits: 11 }));
    const sendgrid = res.candidates.find((c) => c.routeKey === "email.send.sendgrid")!;
    expect(sendgrid).toMatchObject({
      canExecuteNow: false,
      blockingRequirements: ["OVER_MAX_PRICE"],
      unavailableReasonCode: "over_max_price",
    });
    const resend = res.candidates.find((c) => c.routeKey === "email.send.resend")!;
    expect(resend).toMatchObject({ canExecuteNow: true, blockingRequirements: [] });
    expect(resend.unavailableReasonCode).toBeUndefined();
    const byo = res.candidates.find((c) => c.routeKey === "email.send.mailgun")!;
    expect(byo.unavailableReasonCode).toBe("byo_credentials_required");
  });

  it("a replica whose catalog changed refuses an older answer as RECOMMENDATION_STALE", async () => {
    const answered = await sys.a.client.recommend(emailSend({}));
    // The same catalog with one price changed: a new catalog version.
    const dir = mkdtempSync(join(tmpdir(), "router-catalog-"));
    cpSync(FIXTURE_CATALOG_DIR, dir, { recursive: true });
    const geo = join(dir, "geo.yaml");
    writeFileSync(geo, readFileSync(geo, "utf8").replace("priceCredits: 3", "priceCredits: 4"));
    const newer = await startTestCatalog({ catalogDir: dir });
    try {
      const onNewer = await sys.addRouter(newer.address);
      expect(await refusal(onNewer.client.getRecommendation({ recommendationId: answered.recommendationId, userId: USER }))).toEqual({
        grpc: status.FAILED_PRECONDITION,
        code: "RECOMMENDATION_STALE",
      });
      // The replica still on the answer's catalog serves it.
      const same = await sys.b.client.getRecommendation({ recommendationId: answered.recommendationId, userId: USER });
      expect(same.recommendation).toEqual(answered);
    } finally {
      await newer.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("an expired recommendation", () => {
  let sys: Replicas;
  beforeAll(async () => {
    sys = await startReplicas({ RECOMMENDATION_TTL_MS: "4000" });
  });
  afterAll(() => sys?.stop());

  // A lifetime of 4 s: long enough to read the answer back first on a loaded machine, short enough to wait out.
  it("is refused as RECOMMENDATION_EXPIRED by every replica once its expiry has passed", async () => {
    const answered = await sys.a.client.recommend(emailSend({}));
    const get = (router: TestRouter) => router.client.getRecommendation({ recommendationId: answered.recommendationId, userId: USER });
    await expect(get(sys.b)).resolves.toEqual({ recommendation: answered });
    // Wait for the clock to pass the stated expiry (no event marks it), then ask both replicas.
    const expiresAt = Date.parse(answered.recommendationExpiresAt);
    await new Promise<void>((resolve) => {
      const check = () => (Date.now() > expiresAt ? resolve() : setTimeout(check, expiresAt - Date.now() + 5));
      check();
    });
    for (const router of [sys.a, sys.b]) {
      expect(await refusal(get(router))).toEqual({ grpc: status.FAILED_PRECONDITION, code: "RECOMMENDATION_EXPIRED" });
    }
  });
});

describe("route health on a replica started later", () => {
  let sys: Replicas;
  let executor: NatsConnection;
  beforeAll(async () => {
    sys = await startReplicas();
    executor = await connect({ servers: sys.nats.url, name: "test-executor", ...natsAuthOptions(sys.nats.users!.executor) });
  });
  afterAll(async () => {
    await executor?.close();
    await sys?.stop();
  });

  it("reports, as soon as it serves, the same health as the replica that saw the outcomes live", async () => {
    const CHEAP = "geo.time.current.worldtime";
    const BACKUP = "geo.time.current.timezonedb";
    const failedAt = new Date(Date.now() - 1_000);
    for (const latencyMs of [100, 200, 300, 400]) await publishOutcome(executor, { routeKey: CHEAP, ok: true, latencyMs });
    for (let i = 0; i < 5; i++) await publishOutcome(executor, { routeKey: CHEAP, ok: false, errorKind: "timeout", observedAt: failedAt });
    await publishOutcome(executor, { routeKey: BACKUP, ok: true, latencyMs: 90 });
    await sys.a.waitForOutcomes(10);

    const health = (router: TestRouter) => router.client.getRouteHealth({ domainKey: "geo", capabilityId: "time-current" });
    const seenLive = await health(sys.a);
    expect(seenLive.routes).toEqual([
      {
        routeKey: CHEAP,
        successRate: 4 / 9,
        p50Ms: 200,
        p95Ms: 400,
        breakerState: "open",
        lastFailureAt: failedAt.toISOString(),
        observations: 9,
      },
      { routeKey: BACKUP, successRate: 1, p50Ms: 90, p95Ms: 90, breakerState: "closed", observations: 1 },
    ]);

    // No wait for outcomes: a replica reports SERVING (its start resolves) only once it has replayed them.
    const late = await sys.addRouter(sys.catalog.address);
    expect(late.app.outcomes.applied).toBe(10);
    expect(await health(late)).toEqual(seenLive);
  });

  it("answers NOT_FOUND for an unknown capability, and every route of a quiet one with no observations", async () => {
    expect(await refusal(sys.a.client.getRouteHealth({ domainKey: "geo", capabilityId: "nowhere" }))).toMatchObject({
      grpc: status.NOT_FOUND,
    });
    const quiet = await sys.a.client.getRouteHealth({ domainKey: "email", capabilityId: "inbox-buy" });
    expect(quiet.routes).toEqual([{ routeKey: "email.inbox.buy.agentmail.mpp", breakerState: "closed", observations: 0 }]);
  });
});
