// Configuration of the catalog service, read once from the environment.
import { z } from "zod";
import { appEnvSchema, portSchema, logLevelSchema, basePathSchema } from "@agentic/platform";

export const configSchema = z.object({
  /** gRPC port. Example: 50051. Local default 50051. */
  PORT: portSchema.default(50051),
  /** Port of the Prometheus /metrics endpoint. Example: 9464. Local default 9461. */
  METRICS_PORT: portSchema.default(9461),
  /** development | test | production. */
  APP_ENV: appEnvSchema,
  /** Folder of the catalog YAML files. Example: /app/services/catalog/catalog. Default: the one shipped with the service. */
  CATALOG_DIR: z.string().min(1).optional(),
  /**
   * Folder of compiled catalogs: read at start when one was compiled from this very YAML (the image's build
   * compiles the shipped catalog into it), else the YAML is compiled and stored there when writable.
   * Example: /tmp/catalog-compiled. Default: services/catalog/dist/compiled-catalog.
   */
  CATALOG_COMPILED_DIR: z.string().min(1).optional(),
  /** Base path the gateway serves the REST API under; catalog paths are derived from it. */
  API_BASE_PATH: basePathSchema,
  /** pino level: fatal, error, warn, info, debug, trace. */
  LOG_LEVEL: logLevelSchema,
});

export type Config = z.infer<typeof configSchema>;
