// Starts a router on given adapters: the EXECUTIONS stream and the shared KV buckets (answered
// recommendations, agents' preferences) ensured, catalog cache, wallet reader (its cache fed by the
// ledger's wallet announcements), route health fed by the
// outcome consumer and caught up with the replay window, the gRPC server (bound, health SERVING).
// `stop()` undoes it in reverse, health off first.
// Should the outcome feed die, health goes NOT_SERVING: the router would keep picking on stale health.
// main.ts runs it for production and local use; test/harness.ts runs the very same wiring in tests.
import type { NatsConnection } from "nats";
import {
  bindServer,
  createHealth,
  createTokenVerifier,
  ensureExecutionsStream,
  openVendorQuotaBuckets,
  stopServer,
  type Logger,
} from "@agentic/platform";
import type { LedgerClient } from "@agentic/clients";
import { CatalogCache, type CatalogSource } from "@agentic/clients";
import {
  createKvQuotaReader,
  openPreferenceStore,
  openRecommendationStore,
  scoringSettings,
  startRouteHealthFeed,
  type OutcomeConsumer,
} from "@agentic/ranking";
import type { Config } from "./config";
import { createRouterServer, ROUTER_SERVICE_NAME } from "./server";
import { IntentIndexHolder } from "./intent/intent-index-holder";
import { createCachedWalletReader } from "./wallet/wallet-reader";
import { WalletCache } from "./wallet/wallet-cache";
import { followWalletEvents, type WalletEvents } from "./wallet/wallet-events";
import { exposeWalletCacheMetrics } from "./metrics";

export interface RouterAppOptions {
  config: Config;
  /** Catalog client (one per process). */
  catalog: CatalogSource;
  /** Ledger client; only GetWallet is called. */
  ledger: Pick<LedgerClient, "getWallet">;
  /** Connected NATS with JetStream; the EXECUTIONS stream is created when missing. */
  nc: NatsConnection;
  logger: Logger;
  /** host:port to bind, e.g. "0.0.0.0:50052" or "127.0.0.1:0". */
  bindAddress: string;
  /** Grace for in-flight calls on stop before they are cut (default 10 s). */
  grpcStopGraceMs?: number;
}

export interface RouterApp {
  port: number;
  /** The outcome consumer feeding route health (`applied`: outcomes applied so far). */
  outcomes: OutcomeConsumer;
  /** The cached wallet reads (`stats`: hits, misses, bypassed, invalidations). */
  walletCache: WalletCache;
  /** The ledger's wallet announcements feeding the cache (`onAnnouncement` to await one). */
  walletEvents: WalletEvents;
  /** Health NOT_SERVING, stop gRPC, stop the outcome consumer and the catalog poll. Adapters stay open. */
  stop(): Promise<void>;
}

export async function startRouterApp(opts: RouterAppOptions): Promise<RouterApp> {
  const { config, logger } = opts;
  // The outcome consumer reads this stream; a router may start before any publisher has created it.
  await ensureExecutionsStream(await opts.nc.jetstreamManager(), { replicas: config.NATS_STREAM_REPLICAS });
  const replicas = config.NATS_STREAM_REPLICAS;
  const [recommendations, preferences] = await Promise.all([
    openRecommendationStore(opts.nc, { ttlMs: config.RECOMMENDATION_TTL_MS, replicas, maxBytes: config.RECOMMENDATION_STORE_MAX_BYTES }),
    openPreferenceStore(opts.nc, {
      ttlMs: config.AGENT_PREFERENCES_TTL_MS,
      replicas,
      maxBytes: config.AGENT_PREFERENCES_MAX_BYTES,
      maxNames: config.AGENT_NAMES_PER_USER_MAX,
    }),
  ]);
  const vendorQuota = createKvQuotaReader(await openVendorQuotaBuckets(opts.nc, { replicas }), { logger });
  const catalog = new CatalogCache(opts.catalog, { refreshMs: config.CATALOG_REFRESH_MS, logger });
  // The intent index of each catalog version is built as soon as the version is seen, not by the first query.
  const intent = new IntentIndexHolder(catalog, logger);
  catalog.onNewVersion(() => intent.prepare());
  catalog.start();

  const walletCache = new WalletCache({ maxEntries: config.WALLET_CACHE_MAX_ENTRIES, maxAgeMs: config.WALLET_CACHE_MAX_AGE_MS });
  const walletEvents = followWalletEvents(opts.nc, walletCache, logger);
  const unexposeWalletCache = exposeWalletCacheMetrics(walletCache);

  const grpcHealth = createHealth([ROUTER_SERVICE_NAME]);
  let outcomeFeedDead = false;
  const { routeHealth, outcomes } = await startRouteHealthFeed(opts.nc, config, logger, {
    tracedAs: "router",
    onFailed: () => {
      outcomeFeedDead = true;
      grpcHealth.setServing(false);
    },
  });

  const server = createRouterServer({
    grpcHealth,
    verifier: createTokenVerifier(config.TRUSTED_SERVICE_KEYS),
    catalog,
    intent,
    wallet: createCachedWalletReader(opts.ledger, walletCache, logger),
    routeHealth,
    vendorQuota,
    preferences,
    recommendations,
    recommendationTtlMs: config.RECOMMENDATION_TTL_MS,
    defaultPreferences: config.DEFAULT_PREFERENCES,
    scoring: scoringSettings(config),
    dependencyDeadlineMs: config.DEPENDENCY_DEADLINE_MS,
    logger,
  });
  const port = await bindServer(server, opts.bindAddress);
  // A new replica serves from the same health as the others: the replay window first.
  await caughtUpOrTimeout(outcomes, config.OUTCOME_REPLAY_TIMEOUT_MS, logger);
  grpcHealth.setServing(!outcomeFeedDead);
  logger.info({ port, defaultPreferences: config.DEFAULT_PREFERENCES }, "router serving");

  let stopping: Promise<void> | undefined;
  return {
    port,
    outcomes,
    walletCache,
    walletEvents,
    stop() {
      stopping ??= (async () => {
        grpcHealth.setServing(false);
        await stopServer(server, opts.grpcStopGraceMs ?? 10_000);
        await outcomes.stop();
        walletEvents.stop();
        unexposeWalletCache();
        catalog.stop();
      })();
      return stopping;
    },
  };
}

/** Waits for the outcome replay; past `timeoutMs` (a huge backlog) it serves anyway, saying so. */
async function caughtUpOrTimeout(outcomes: OutcomeConsumer, timeoutMs: number, logger: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs)));
  const late = await Promise.race([outcomes.caughtUp.then(() => false), timedOut]);
  clearTimeout(timer);
  if (late)
    logger.warn({ applied: outcomes.applied, timeoutMs }, "outcome replay not caught up in time; serving with partial route health");
  else logger.info({ applied: outcomes.applied }, "outcome replay caught up");
}
