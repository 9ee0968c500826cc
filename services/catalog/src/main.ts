// Composition root of the catalog: config → logger → lifecycle → metrics → catalog app (catalog
// loaded, gRPC + health). SIGTERM and SIGINT stop it in reverse order.
import { runMain, startProcess } from "@agentic/platform";
import { startCatalogApp } from "./app";
import { configSchema } from "./config";

async function main(): Promise<void> {
  const { config, logger, life } = await startProcess("catalog", configSchema, { deadlineMs: 20_000, metricsPort: (c) => c.METRICS_PORT });

  const app = await startCatalogApp({
    catalogDir: config.CATALOG_DIR,
    compiledDir: config.CATALOG_COMPILED_DIR,
    basePath: config.API_BASE_PATH,
    logger,
    bindAddress: `0.0.0.0:${config.PORT}`,
  });
  life.onStop("catalog", () => app.stop()); // runs first: health off, stop gRPC
}

runMain("catalog", main);
