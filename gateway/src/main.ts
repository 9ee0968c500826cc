// Composition root of the gateway: config → logger → lifecycle → metrics port → backend clients →
// gateway app (limits, catalog answers, express, HTTP server). Started as
// `node --require @agentic/platform/telemetry dist/main.js`; SIGTERM or SIGINT stops it in reverse order.
import { runMain, serviceIdentity, startProcess } from "@agentic/platform";
import { createCatalogClient, createExecutorClient, createLedgerClient, createRouterClient } from "@agentic/clients";
import { configSchema, metricsPortOf, shutdownDeadlineMs } from "./config";
import { startGatewayApp } from "./app";

async function main(): Promise<void> {
  const { config, logger, life, metrics } = await startProcess("gateway", configSchema, {
    deadlineMs: shutdownDeadlineMs,
    metricsPort: metricsPortOf,
  });
  const identity = serviceIdentity("gateway", config.SERVICE_IDENTITY_KEY);
  const catalog = life.closing("catalog client", createCatalogClient(config.CATALOG_ADDR, config.BACKEND_DEADLINE_MS, identity));
  const ledger = life.closing("ledger client", createLedgerClient(config.LEDGER_ADDR, config.BACKEND_DEADLINE_MS, identity));
  const router = life.closing("router client", createRouterClient(config.ROUTER_ADDR, config.BACKEND_DEADLINE_MS, identity));
  // Execute runs a paid provider call (with fallbacks): it gets its own, longer deadline.
  const executor = life.closing("executor client", createExecutorClient(config.EXECUTOR_ADDR, config.EXECUTE_DEADLINE_MS, identity));

  const app = await startGatewayApp({
    config,
    clients: { catalog, ledger, router, executor },
    logger,
    metricsOnPublicPort: metrics === undefined,
  });
  life.onStop("gateway", () => app.stop()); // runs first: the HTTP server stops taking requests and drains
}

runMain("gateway", main);
