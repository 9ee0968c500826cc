// Route health as every process that ranks keeps it: a book with the deployment's health settings,
// fed by this process's own consumer of executions.outcome from the replay window on (the router
// and the executor each start one, so both rank from the same outcomes).
import type { NatsConnection } from "nats";
import type { Logger } from "@agentic/platform";
import { RouteHealthBook } from "../domain/route-health";
import { healthSettings, type RankingConfig } from "../settings";
import { startOutcomeConsumer, type OutcomeConsumer, type OutcomeConsumerOptions } from "./outcome-consumer";

export interface RouteHealthFeed {
  routeHealth: RouteHealthBook;
  outcomes: OutcomeConsumer;
}

export async function startRouteHealthFeed(
  nc: NatsConnection,
  config: RankingConfig,
  logger: Logger,
  opts: Pick<OutcomeConsumerOptions, "tracedAs" | "onFailed"> = {},
): Promise<RouteHealthFeed> {
  const routeHealth = new RouteHealthBook(healthSettings(config));
  const outcomes = await startOutcomeConsumer({ nc, book: routeHealth, replayWindowMs: config.OUTCOME_REPLAY_MS, logger, ...opts });
  return { routeHealth, outcomes };
}
