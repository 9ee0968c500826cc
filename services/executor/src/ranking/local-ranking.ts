// The ranking of an unpinned execute, and the stored recommendation a recommendationId names, in this
// process: the same library the router answers recommend with (@agentic/ranking), fed by the same shared
// state, so recommend and execute rank alike on every replica without a router round trip:
// - route health: this replica's own ordered consumer of executions.outcome, replaying the same window
//   before the executor serves, as every router replica does (the book depends only on the stream; no
//   span per outcome here: the router's consumer span already joins each outcome to its execution's trace);
// - an agent's remembered goals and the stored recommendations: the router's KV buckets, read only;
// - vendor quota use: the counters the executor takes from.
// It remembers nothing: a stored answer and an agent's goals are written by recommend alone.
import type { NatsConnection } from "nats";
import type { CatalogCache } from "@agentic/clients";
import type { Logger, VendorQuotaBuckets } from "@agentic/platform";
import {
  createKvQuotaReader,
  getRecommendationFor,
  openPreferenceReader,
  openRecommendationReader,
  recommendFor,
  scoringSettings,
  startRouteHealthFeed,
  type OutcomeConsumer,
  type RankingConfig,
  type WalletReader,
} from "@agentic/ranking";
import type { RouterPort } from "../domain/ports";

export interface LocalRankingOptions {
  nc: NatsConnection;
  catalog: Pick<CatalogCache, "capability">;
  config: RankingConfig & { NATS_STREAM_REPLICAS: number; DEPENDENCY_DEADLINE_MS: number };
  logger: Logger;
  /** The vendor quota counters, as the executor opened them to take from. */
  vendorQuotaBuckets: VendorQuotaBuckets;
  /** Called once if the outcome feed dies: the ranking would rest on frozen health (the executor goes NOT_SERVING). */
  onFeedFailed(): void;
}

export interface LocalRanking {
  /** Recommend (ranking-only) and GetRecommendation, answered here. */
  router: RouterPort;
  /** The outcome consumer feeding route health (`caughtUp`: the replay window read). */
  outcomes: OutcomeConsumer;
  stop(): Promise<void>;
}

/** An execute's ranking reads no wallet (its hold checks the credits); nothing else is asked here. */
const NO_WALLET: WalletReader = {
  read: () => Promise.reject(new Error("the executor ranks ranking-only: it reads no wallet")),
};

export async function startLocalRanking(opts: LocalRankingOptions): Promise<LocalRanking> {
  const { config, logger } = opts;
  const { routeHealth, outcomes } = await startRouteHealthFeed(opts.nc, config, logger, { onFailed: opts.onFeedFailed });
  const recommendations = openRecommendationReader(opts.nc);
  const recommend = recommendFor({
    catalog: opts.catalog,
    wallet: NO_WALLET,
    routeHealth,
    vendorQuota: createKvQuotaReader(opts.vendorQuotaBuckets, { logger }),
    preferences: openPreferenceReader(opts.nc),
    recommendationTtlMs: 0,
    defaultPreferences: config.DEFAULT_PREFERENCES,
    scoring: scoringSettings(config),
    dependencyDeadlineMs: config.DEPENDENCY_DEADLINE_MS,
    logger,
  });
  const getRecommendation = getRecommendationFor({
    catalog: opts.catalog,
    recommendations,
    dependencyDeadlineMs: config.DEPENDENCY_DEADLINE_MS,
  });
  return {
    router: {
      recommend: async (req, callOpts) => (await recommend(req, callOpts?.deadlineMs ?? Infinity)).response,
      getRecommendation: (req, callOpts) => getRecommendation(req, callOpts?.deadlineMs ?? Infinity),
    },
    outcomes,
    stop: () => outcomes.stop(),
  };
}
