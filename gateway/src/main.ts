// Gateway composition root: config → clients → app → HTTP server → lifecycle.
import { createServer } from "node:http";
import { Lifecycle, createLogger, loadConfig, shutdownTelemetryIfLoaded } from "@agentic/platform";
import { createCatalogClient, createExecutorClient, createLedgerClient, createRouterClient } from "@agentic/clients";
import { configSchema } from "./config";
import { createApp } from "./app";
import { backendChecks } from "./routes/health";
import { RenderedCatalogCache } from "./catalog/rendered-cache";

async function main(): Promise<void> {
  const config = loadConfig(configSchema);
  const logger = createLogger("gateway", config.LOG_LEVEL);
  const life = new Lifecycle({ deadlineMs: 20_000, logger });
  life.onStop("telemetry", shutdownTelemetryIfLoaded);

  const catalog = createCatalogClient(config.CATALOG_ADDR, config.BACKEND_DEADLINE_MS);
  const ledger = createLedgerClient(config.LEDGER_ADDR, config.BACKEND_DEADLINE_MS);
  const router = createRouterClient(config.ROUTER_ADDR, config.BACKEND_DEADLINE_MS);
  // Execute runs a paid provider call (with fallbacks): it gets its own, longer deadline.
  const executor = createExecutorClient(config.EXECUTOR_ADDR, config.EXECUTE_DEADLINE_MS);
  life.onStop("clients", () => {
    catalog.close();
    ledger.close();
    router.close();
    executor.close();
  });
  const readiness = backendChecks({ catalog: config.CATALOG_ADDR, ledger: config.LEDGER_ADDR, router: config.ROUTER_ADDR, executor: config.EXECUTOR_ADDR });
  life.onStop("readiness", () => readiness.close());

  const catalogCache = new RenderedCatalogCache(
    async () => (await catalog.listDomains({})).catalogVersion,
    { refreshMs: config.CATALOG_REFRESH_MS, maxEntries: 2_000 },
    logger,
  );
  catalogCache.start();
  life.onStop("catalog-cache", () => catalogCache.stop());

  const app = createApp({
    basePath: config.API_BASE_PATH,
    bodyLimit: config.BODY_LIMIT,
    devRoutes: config.APP_ENV !== "production",
    catalog,
    catalogCache,
    ledger,
    router,
    executor,
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
