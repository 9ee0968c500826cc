// Composition root of the catalog: config → logger → lifecycle → metrics → catalog app (catalog
// loaded, gRPC + health). SIGTERM and SIGINT stop it in reverse order.
import { Lifecycle, createLogger, loadConfig, runMain, shutdownTelemetryIfLoaded, startMetricsServer } from "@agentic/platform";
import { startCatalogApp } from "./app";
import { configSchema } from "./config";

async function main(): Promise<void> {
  const config = loadConfig(configSchema);
  const logger = createLogger("catalog", config.LOG_LEVEL);
  const life = new Lifecycle({ deadlineMs: 20_000, logger });
  life.listen(["SIGTERM", "SIGINT"]);
  life.onStop("telemetry", shutdownTelemetryIfLoaded);
  const metrics = await startMetricsServer(config.METRICS_PORT);
  life.onStop("metrics", () => metrics.close());

  const app = await startCatalogApp({
    catalogDir: config.CATALOG_DIR,
    basePath: config.API_BASE_PATH,
    logger,
    bindAddress: `0.0.0.0:${config.PORT}`,
  });
  life.onStop("catalog", () => app.stop()); // runs first: health off, stop gRPC
}

runMain("catalog", main);
