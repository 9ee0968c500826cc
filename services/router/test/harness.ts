// startTestRouter(): a real router for tests — the production wiring (src/app.ts: EXECUTIONS stream,
// catalog cache, wallet reader, route health fed by an ordered consumer of executions.outcome, gRPC + health) on
// 127.0.0.1:<random port>. Used by the router's own integration tests and by other services' tests:
//
//   const nats = await startNatsServer();
//   const catalog = await startTestCatalog();
//   const ledger = await startTestLedger({ natsUrl: nats.url, grants: { "user-1": 100 } });
//   const router = await startTestRouter({ catalogAddress: catalog.address, ledgerAddress: ledger.address, natsUrl: nats.url });
//   const rec = await router.client.recommend({ userId: "user-1", domainKey: "email", capabilityId: "send", input: {} });
//   await publishOutcome(router.nc, { routeKey: "email.send.resend", ok: false, errorKind: "timeout" });
//   await router.stop();
import { testIdentities, waitFor, whenConnected } from "@agentic/testing";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { NatsConnection, PubAck } from "nats";
import { createCatalogClient, createLedgerClient, createRouterClient, type LedgerClient, type RouterClient } from "@agentic/clients";
import { SUBJECT_OUTCOME, connectBus, createLogger, loadConfig, natsCredentialsOf, serviceIdentity } from "@agentic/platform";
import { RouteOutcome } from "@agentic/proto/events/v1";
import { startRouterApp, type RouterApp } from "../src/app";
import { configSchema } from "../src/config";

/**
 * The router's fixture catalog (for a catalog started with it): live email routes (managed and byo),
 * gated text.analyze, two geo time routes; stable, unlike the shipped catalog, so tests can name its routes.
 */
export const FIXTURE_CATALOG_DIR = join(__dirname, "fixtures", "catalog");

export interface StartTestRouterOptions {
  /** host:port of a catalog (e.g. startTestCatalog().address). */
  catalogAddress: string;
  /** host:port of a ledger (e.g. startTestLedger().address). */
  ledgerAddress: string;
  /** A nats-server with JetStream; the EXECUTIONS stream is created if missing. */
  natsUrl: string;
  /** Router env overrides, e.g. { BREAKER_FAILURES: "3", DEFAULT_PREFERENCES: "speed" } (see src/config.ts). */
  env?: Record<string, string>;
  /** pino level (default ROUTER_TEST_LOG_LEVEL, else "silent"). */
  logLevel?: string;
}

export interface TestRouter {
  /** "127.0.0.1:<port>": what ROUTER_ADDR should be for the code under test. */
  address: string;
  /** The router client of @agentic/clients (5 s deadline by default); closed by stop(). */
  client: RouterClient;
  /** The harness's own NATS connection (publish outcomes with publishOutcome(router.nc, ...)). */
  nc: NatsConnection;
  /** The running app: its port, outcome consumer (`outcomes.applied`) and wallet cache (`walletCache.stats`). */
  app: RouterApp;
  /** GetWallet calls the router made to the ledger so far (counted on the real client it calls through). */
  readonly walletReads: number;
  /**
   * Resolves at the next wallet announcement of `userId` the router applies (call it before the change:
   * `const seen = router.nextWalletAnnouncement(u); await change(); await seen;`).
   */
  nextWalletAnnouncement(userId: string, timeoutMs?: number): Promise<void>;
  /** Resolves once the router has applied at least `count` outcomes in total. */
  waitForOutcomes(count: number, timeoutMs?: number): Promise<void>;
  /** Stops the router (health off, gRPC stopped, consumer stopped), closes clients and NATS. Idempotent. */
  stop(): Promise<void>;
}

export async function startTestRouter(opts: StartTestRouterOptions): Promise<TestRouter> {
  const config = loadConfig(configSchema, {
    NATS_URL: opts.natsUrl,
    CATALOG_ADDR: opts.catalogAddress,
    LEDGER_ADDR: opts.ledgerAddress,
    // The router's identity of testIdentities(), which the ledger harness trusts.
    SERVICE_IDENTITY_KEY: testIdentities().privateKeys.router,
    TRUSTED_SERVICE_KEYS: testIdentities().trustedKeys,
    ...opts.env,
  });
  const identity = serviceIdentity("router", config.SERVICE_IDENTITY_KEY);
  const logger = createLogger("router", opts.logLevel ?? process.env.ROUTER_TEST_LOG_LEVEL ?? "silent");
  const catalog = createCatalogClient(config.CATALOG_ADDR, config.DEPENDENCY_DEADLINE_MS, identity);
  const ledger = createLedgerClient(config.LEDGER_ADDR, config.DEPENDENCY_DEADLINE_MS, identity);
  let walletReads = 0;
  const countedLedger: Pick<LedgerClient, "getWallet"> = {
    getWallet: (req, callOpts) => {
      walletReads++;
      return ledger.getWallet(req, callOpts);
    },
  };
  const nc = await connectBus(opts.natsUrl, "router-test", natsCredentialsOf(config));
  let app: RouterApp;
  try {
    app = await startRouterApp({ config, catalog, ledger: countedLedger, nc, logger, bindAddress: "127.0.0.1:0", grpcStopGraceMs: 2_000 });
    // Cached wallet reads from the first recommend on, as a router that has run a moment.
    await app.walletEvents.ready;
  } catch (err) {
    catalog.close();
    ledger.close();
    await nc.close();
    throw err;
  }

  const address = `127.0.0.1:${app.port}`;
  const client = createRouterClient(address, 5_000, testIdentities().identity("gateway"));

  let stopped: Promise<void> | undefined;
  return whenConnected(client, {
    address,
    client,
    nc,
    app,
    get walletReads() {
      return walletReads;
    },
    nextWalletAnnouncement(userId, timeoutMs = 5_000) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          off();
          reject(new Error(`no wallet announcement of ${userId} within ${timeoutMs} ms`));
        }, timeoutMs);
        const off = app.walletEvents.onAnnouncement((announced) => {
          if (announced !== userId) return;
          clearTimeout(timer);
          off();
          resolve();
        });
      });
    },
    waitForOutcomes: (count, timeoutMs = 5_000) =>
      waitFor(() => app.outcomes.applied >= count, { timeoutMs, what: `${count} outcomes applied` }),
    stop() {
      stopped ??= (async () => {
        client.close();
        await app.stop();
        catalog.close();
        ledger.close();
        await nc.drain();
      })();
      return stopped;
    },
  });
}

/**
 * Publishes one RouteOutcome on executions.outcome as the executor does (msgID "<attemptId>.outcome");
 * resolves with the stream ack. The router reads routeKey only; capabilityKey and providerKey are
 * sent as given (empty otherwise), since a route key alone does not tell them apart
 * ("email.send.agentmail.mpp" is capability email.send, provider agentmail, network mpp).
 * Without `userId` it is the platform's own evidence (counted in full, like a probe); the executor
 * always names the user, whose failures count against the route only as far as other users saw some too.
 */
export function publishOutcome(
  nc: NatsConnection,
  outcome: Pick<RouteOutcome, "routeKey" | "ok"> & Partial<RouteOutcome>,
): Promise<PubAck> {
  const message = RouteOutcome.fromPartial({
    attemptId: `att_${randomUUID()}`,
    errorKind: outcome.ok ? "" : "http_5xx",
    latencyMs: 100,
    observedAt: new Date(),
    ...outcome,
  });
  return nc.jetstream().publish(SUBJECT_OUTCOME, RouteOutcome.encode(message).finish(), { msgID: `${message.attemptId}.outcome` });
}
