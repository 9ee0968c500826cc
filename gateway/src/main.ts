// Composition root of the gateway: config → logger → lifecycle → metrics port → backend clients →
// gateway app (limits, catalog answers, express, HTTP server). Started as
// `node --require @agentic/platform/telemetry dist/main.js`; SIGTERM or SIGINT stops it in reverse order.
import {
  Lifecycle,
  createLogger,
  loadConfig,
  runMain,
  serviceIdentity,
  shutdownTelemetryIfLoaded,
  startMetricsServer,
} from "@agentic/platform";
import { createCatalogClient, createExecutorClient, createLedgerClient, createRouterClient } from "@agentic/clients";
import { configSchema, metricsPortOf } from "./config";
import { startGatewayApp } from "./app";

async function main(): Promise<void> {
  const config = loadConfig(configSchema);
  const logger = createLogger("gateway", config.LOG_LEVEL);
  const life = new Lifecycle({ deadlineMs: 20_000, logger });
  life.listen(["SIGTERM", "SIGINT"]);
  life.onStop("telemetry", shutdownTelemetryIfLoaded);
  const metricsPort = metricsPortOf(config);
  if (metricsPort !== undefined) {
    const metrics = await startMetricsServer(metricsPort);
    life.onStop("metrics", () => metrics.close());
  }

  const identity = serviceIdentity("gateway", config.SERVICE_IDENTITY_KEY);
  const catalog = createCatalogClient(config.CATALOG_ADDR, config.BACKEND_DEADLINE_MS, identity);
  life.onStop("catalog client", () => catalog.close());
  const ledger = createLedgerClient(config.LEDGER_ADDR, config.BACKEND_DEADLINE_MS, identity);
  life.onStop("ledger client", () => ledger.close());
  const router = createRouterClient(config.ROUTER_ADDR, config.BACKEND_DEADLINE_MS, identity);
  life.onStop("router client", () => router.close());
  // Execute runs a paid provider call (with fallbacks): it gets its own, longer deadline.
  const executor = createExecutorClient(config.EXECUTOR_ADDR, config.EXECUTE_DEADLINE_MS, identity);
  life.onStop("executor client", () => executor.close());

  const app = await startGatewayApp({
    config,
    clients: { catalog, ledger, router, executor },
    logger,
    metricsOnPublicPort: metricsPort === undefined,
  });
  life.onStop("gateway", () => app.stop()); // runs first: the HTTP server stops taking requests and drains
}

runMain("gateway", main);
