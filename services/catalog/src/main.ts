// Catalog service composition root: config → catalog → server → health → lifecycle.
import {
  Lifecycle,
  bindServer,
  createHealth,
  createLogger,
  loadConfig,
  startMetricsServer,
  stopServer,
  shutdownTelemetryIfLoaded,
} from "@agentic/platform";
import { configSchema } from "./config";
import { DEFAULT_CATALOG_DIR, loadCatalog } from "./domain";
import { CATALOG_SERVICE_NAME, createCatalogServer } from "./server";

async function main(): Promise<void> {
  const config = loadConfig(configSchema);
  const logger = createLogger("catalog", config.LOG_LEVEL);
  const life = new Lifecycle({ deadlineMs: 20_000, logger });
  life.onStop("telemetry", shutdownTelemetryIfLoaded);

  // A catalog that fails validation stops the start: serving a wrong catalog is worse than none.
  const catalog = loadCatalog(config.CATALOG_DIR ?? DEFAULT_CATALOG_DIR, { basePath: config.API_BASE_PATH });
  logger.info({ version: catalog.version, domains: catalog.listDomains().length }, "catalog loaded");

  const metrics = await startMetricsServer(config.METRICS_PORT);
  life.onStop("metrics", () => metrics.close());

  const health = createHealth([CATALOG_SERVICE_NAME]);
  const server = createCatalogServer({ catalog, health, logger });
  const port = await bindServer(server, `0.0.0.0:${config.PORT}`);
  life.onStop("grpc", () => stopServer(server, 15_000));
  life.onStop("health", () => health.setServing(false));
  health.setServing(true);
  life.listen();
  logger.info({ port }, "catalog serving");
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
