// Configuration of the gateway, read once from the environment.
import { z } from "zod";
import { addressSchema, basePathSchema, explicitAppEnvSchema, portSchema, logLevelSchema, serviceIdentityKeySchema } from "@agentic/platform";

export const configSchema = z.object({
  /** HTTP port. Example: 8080. */
  PORT: portSchema.default(8080),
  /**
   * development | test | production. Only an explicit development or test mounts /dev/init and honours
   * /wallet?userId=; unset or production does neither (a forgotten APP_ENV never opens them).
   */
  APP_ENV: explicitAppEnvSchema,
  /** The gateway's Ed25519 private key (base64 PKCS#8 DER, from a Secret), proving who calls on every gRPC call. `npm start` generates one. */
  SERVICE_IDENTITY_KEY: serviceIdentityKeySchema,
  /** Catalog gRPC address. Example: catalog:50051. */
  CATALOG_ADDR: addressSchema.default("127.0.0.1:50051"),
  /** Router gRPC address. Example: router:50051. */
  ROUTER_ADDR: addressSchema.default("127.0.0.1:50052"),
  /** Executor gRPC address. Example: executor:50051. */
  EXECUTOR_ADDR: addressSchema.default("127.0.0.1:50053"),
  /** Ledger gRPC address. Example: ledger:50051. */
  LEDGER_ADDR: addressSchema.default("127.0.0.1:50054"),
  /** Base path of the REST API, so clients of the hosted product only change the host. */
  API_BASE_PATH: basePathSchema,
  /** Largest accepted JSON body. Example: 256kb. */
  BODY_LIMIT: z.string().regex(/^\d+(b|kb|mb)$/, "must look like 256kb").default("256kb"),
  /** Deadline of one backend gRPC call, in ms. */
  BACKEND_DEADLINE_MS: z.coerce.number().int().min(50).max(60_000).default(5_000),
  /** Deadline of one execute call, in ms: a paid provider call with fallbacks; the executor finishes (and settles) within it. */
  EXECUTE_DEADLINE_MS: z.coerce.number().int().min(1_000).max(300_000).default(60_000),
  /** How often the gateway checks the catalog version behind its in-memory catalog answers, in ms. */
  CATALOG_REFRESH_MS: z.coerce.number().int().min(100).max(600_000).default(2_000),
  /** How long a client may take to send its request headers before a 408, in ms. Example: 10000. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** How long a client may take to send its whole request (headers and body) before a 408, in ms. Example: 30000. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /**
   * Port of Prometheus /metrics, apart from the public port, e.g. 9464. Unset: /metrics is served on
   * the public port outside production only; production always needs its own port (default 9464).
   */
  METRICS_PORT: portSchema.optional(),
  /** pino level. */
  LOG_LEVEL: logLevelSchema,
});

export type Config = z.infer<typeof configSchema>;
