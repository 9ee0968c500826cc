// Composition root of the router: config → logger → lifecycle → metrics → catalog client → ledger
// client → NATS → router app (EXECUTIONS stream, catalog cache, route health + outcome consumer,
// gRPC + health). Started as `node --require @agentic/platform/telemetry dist/main.js`; SIGTERM and
// SIGINT stop it in reverse order.
import {
  connectBus,
  createLogger,
  Lifecycle,
  loadConfig,
  natsCredentialsOf,
  runMain,
  serviceIdentity,
  shutdownTelemetryIfLoaded,
  startMetricsServer,
} from "@agentic/platform";
import { createCatalogClient, createLedgerClient } from "@agentic/clients";
import { configSchema } from "./config";
import { startRouterApp } from "./app";

async function main(): Promise<void> {
  const config = loadConfig(configSchema);
  const logger = createLogger("router", config.LOG_LEVEL);
  const life = new Lifecycle({ deadlineMs: 20_000, logger });
  life.listen(["SIGTERM", "SIGINT"]);
  life.onStop("telemetry", shutdownTelemetryIfLoaded);
  const metrics = await startMetricsServer(config.METRICS_PORT);
  life.onStop("metrics", () => metrics.close());

  const identity = serviceIdentity("router", config.SERVICE_IDENTITY_KEY);
  const catalog = createCatalogClient(config.CATALOG_ADDR, config.DEPENDENCY_DEADLINE_MS, identity);
  life.onStop("catalog client", () => catalog.close());
  const ledger = createLedgerClient(config.LEDGER_ADDR, config.DEPENDENCY_DEADLINE_MS, identity);
  life.onStop("ledger client", () => ledger.close());

  const nc = await connectBus(config.NATS_URL, "router", natsCredentialsOf(config));
  life.onStop("nats", () => nc.drain());

  const app = await startRouterApp({ config, catalog, ledger, nc, logger, bindAddress: `0.0.0.0:${config.PORT}` });
  life.onStop("router", () => app.stop()); // runs first: health off, stop gRPC, stop the outcome consumer
}

runMain("router", main);
