// Composition root of the executor: config → logger → metrics → catalog, router and ledger clients →
// NATS → executor (EXECUTIONS stream, rails, providers, publishers, gRPC + health) → lifecycle.
// Started as `node --require @agentic/platform/telemetry dist/main.js`; SIGTERM stops it in reverse:
// health off, in-flight executions finish and settle, then NATS drains.
import {
  Lifecycle,
  connectBus,
  createLogger,
  loadConfig,
  natsCredentialsOf,
  runMain,
  serviceIdentity,
  shutdownTelemetryIfLoaded,
  startMetricsServer,
} from "@agentic/platform";
import { createCatalogClient, createLedgerClient, createRouterClient } from "@agentic/clients";
import { configSchema } from "./config";
import { startExecutorApp } from "./app";

async function main(): Promise<void> {
  const config = loadConfig(configSchema);
  const logger = createLogger("executor", config.LOG_LEVEL);
  const life = new Lifecycle({ deadlineMs: 25_000, logger });
  life.listen(["SIGTERM", "SIGINT"]);
  life.onStop("telemetry", shutdownTelemetryIfLoaded);
  const metrics = await startMetricsServer(config.METRICS_PORT);
  life.onStop("metrics", () => metrics.close());

  const identity = serviceIdentity("executor", config.SERVICE_IDENTITY_KEY);
  const catalog = createCatalogClient(config.CATALOG_ADDR, config.DEPENDENCY_DEADLINE_MS, identity);
  life.onStop("catalog client", () => catalog.close());
  const router = createRouterClient(config.ROUTER_ADDR, config.DEPENDENCY_DEADLINE_MS, identity);
  life.onStop("router client", () => router.close());
  const ledger = createLedgerClient(config.LEDGER_ADDR, config.DEPENDENCY_DEADLINE_MS, identity);
  life.onStop("ledger client", () => ledger.close());

  const nc = await connectBus(config.NATS_URL, "executor", natsCredentialsOf(config));
  life.onStop("nats", () => nc.drain());

  const app = await startExecutorApp({ config, catalog, router, ledger, nc, logger, bindAddress: `0.0.0.0:${config.PORT}` });
  life.onStop("executor", () => app.stop()); // runs first: health off, in-flight executions settle, outcomes flushed
}

runMain("executor", main);
