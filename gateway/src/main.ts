// Gateway composition root: config → clients → app → HTTP server → lifecycle.
import { createServer } from "node:http";
import { Lifecycle, createLogger, loadConfig, shutdownTelemetryIfLoaded } from "@agentic/platform";
import { createCatalogClient, createLedgerClient, createRouterClient } from "@agentic/clients";
import { configSchema } from "./config";
import { createApp } from "./app";
import { backendChecks } from "./routes/health";

async function main(): Promise<void> {
  const config = loadConfig(configSchema);
  const logger = createLogger("gateway", config.LOG_LEVEL);
  const life = new Lifecycle({ deadlineMs: 20_000, logger });
  life.onStop("telemetry", shutdownTelemetryIfLoaded);

  const catalog = createCatalogClient(config.CATALOG_ADDR, config.BACKEND_DEADLINE_MS);
  const ledger = createLedgerClient(config.LEDGER_ADDR, config.BACKEND_DEADLINE_MS);
  const router = createRouterClient(config.ROUTER_ADDR, config.BACKEND_DEADLINE_MS);
  life.onStop("clients", () => {
    catalog.close();
    ledger.close();
    router.close();
  });
  const readiness = backendChecks({ catalog: config.CATALOG_ADDR, ledger: config.LEDGER_ADDR, router: config.ROUTER_ADDR });
  life.onStop("readiness", () => readiness.close());

  const app = createApp({
    basePath: config.API_BASE_PATH,
    bodyLimit: config.BODY_LIMIT,
    devRoutes: config.APP_ENV !== "production",
    catalog,
    ledger,
    router,
    readiness,
    logger,
  });
  const server = createServer(app);
  // Keep-alive longer than typical load balancer idle timeouts, so the LB closes first.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(config.PORT, resolve));
  life.onStop("http", () => new Promise<void>((resolve) => server.close(() => resolve())));
  life.listen();
  logger.info({ port: config.PORT, basePath: config.API_BASE_PATH }, "gateway listening");
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
