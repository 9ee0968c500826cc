// Composition root of the router: config → logger → lifecycle → metrics → catalog client → ledger
// client → NATS → router app (EXECUTIONS stream, catalog cache, route health + outcome consumer,
// gRPC + health). Started as `node --require @agentic/platform/telemetry dist/main.js`; SIGTERM and
// SIGINT stop it in reverse order.
import { connectBus, natsCredentialsOf, runMain, serviceIdentity, startProcess } from "@agentic/platform";
import { createCatalogClient, createLedgerClient } from "@agentic/clients";
import { configSchema } from "./config";
import { startRouterApp } from "./app";

async function main(): Promise<void> {
  const { config, logger, life } = await startProcess("router", configSchema, { deadlineMs: 20_000, metricsPort: (c) => c.METRICS_PORT });
  const identity = serviceIdentity("router", config.SERVICE_IDENTITY_KEY);
  const catalog = life.closing("catalog client", createCatalogClient(config.CATALOG_ADDR, config.DEPENDENCY_DEADLINE_MS, identity));
  const ledger = life.closing("ledger client", createLedgerClient(config.LEDGER_ADDR, config.DEPENDENCY_DEADLINE_MS, identity));

  const nc = await connectBus(config.NATS_URL, "router", natsCredentialsOf(config));
  life.onStop("nats", () => nc.drain());

  const app = await startRouterApp({ config, catalog, ledger, nc, logger, bindAddress: `0.0.0.0:${config.PORT}` });
  life.onStop("router", () => app.stop()); // runs first: health off, stop gRPC, stop the outcome consumer
}

runMain("router", main);
