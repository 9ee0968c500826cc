// Gateway composition root: config → gateway (clients, app, HTTP server) → lifecycle.
import { Lifecycle, createLogger, loadConfig, shutdownTelemetryIfLoaded } from "@agentic/platform";
import { configSchema } from "./config";
import { startGateway } from "./gateway";

async function main(): Promise<void> {
  const config = loadConfig(configSchema);
  const logger = createLogger("gateway", config.LOG_LEVEL);
  const life = new Lifecycle({ deadlineMs: 20_000, logger });
  life.onStop("telemetry", shutdownTelemetryIfLoaded);

  const gateway = await startGateway({ config, logger });
  // Stops the HTTP server first, then the catalog cache, readiness checks and clients.
  life.onStop("gateway", () => gateway.stop());
  life.listen();
  logger.info({ port: gateway.port, basePath: config.API_BASE_PATH }, "gateway listening");
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
