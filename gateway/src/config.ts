// Configuration of the gateway, read once from the environment.
import { z } from "zod";
import {
  addressSchema,
  basePathSchema,
  devHelpersEnabled,
  explicitAppEnvSchema,
  portSchema,
  logLevelSchema,
  serviceIdentityKeySchema,
} from "@agentic/platform";
import type { AccessLogPolicy } from "./middleware/observe";

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
  /**
   * Development only (APP_ENV development or test): /console is proxied to this Vite dev server instead of
   * serving the console's build, so edits show at once on the gateway's own origin. Example: http://127.0.0.1:5173.
   */
  CONSOLE_DEV_SERVER_URL: z.string().url().optional(),
  /** Largest accepted JSON body. Example: 256kb. */
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/, "must look like 256kb")
    .default("256kb"),
  /** Deadline of one backend gRPC call, in ms. */
  BACKEND_DEADLINE_MS: z.coerce.number().int().min(50).max(60_000).default(5_000),
  /**
   * Deadline of one execute call, in ms. It must exceed the longest the executor takes to answer one,
   * its EXECUTION_BUDGET_MS + SETTLEMENT_PUBLISH_TIMEOUT_MS + 3 x DEPENDENCY_DEADLINE_MS + 1 s (77 s with
   * its defaults), so an execute is answered by its outcome, not by a 504 while the executor still works
   * and may charge. The rendered manifests are checked for it (scripts/k8s/shutdown-timing.test.mjs).
   */
  EXECUTE_DEADLINE_MS: z.coerce.number().int().min(1_000).max(300_000).default(90_000),
  /**
   * Past this many capabilities, MCP tools/list answers the generic tools (find_capability, recommend,
   * execute, get_capability_contract, ...) instead of two tools for every capability. Example: 200.
   */
  MCP_GENERIC_TOOLS_ABOVE: z.coerce.number().int().min(0).max(1_000_000).default(200),
  /** How often the gateway checks the catalog version behind its in-memory catalog answers, in ms. */
  CATALOG_REFRESH_MS: z.coerce.number().int().min(100).max(600_000).default(2_000),
  /** How long a client may take to send its request headers before a 408, in ms. Example: 10000. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** How long a client may take to send its whole request (headers and body) before a 408, in ms. Example: 30000. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** Requests per second one API key may send, sustained. Example: 20. */
  RATE_LIMIT_RPS: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Most requests one API key may send in one second after a quiet spell (at least RATE_LIMIT_RPS). Example: 40. */
  RATE_LIMIT_BURST: z.coerce.number().int().min(1).max(100_000).default(40),
  /** Most requests of one API key in flight at once. Example: 32. */
  RATE_LIMIT_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(32),
  /** Requests without a valid API key one client IP may send per minute (each can cost a ledger lookup). Example: 60. */
  RATE_LIMIT_UNAUTHENTICATED_PER_MIN: z.coerce.number().int().min(1).max(1_000_000).default(60),
  /** Redis shared by every gateway replica for the per-key counts, e.g. redis://redis:6379. Unset: counted in process (one gateway). */
  RATE_LIMIT_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, "must look like redis://host:6379")
    .optional(),
  /** Prefix of the gateway's keys in that Redis. */
  RATE_LIMIT_REDIS_PREFIX: z.string().min(1).max(100).default("agentic:gateway:"),
  /** Most requests the gateway serves at once before it sheds new ones with 503 OVERLOADED; 0: no cap. Example: 512. */
  SHED_MAX_IN_FLIGHT: z.coerce.number().int().min(0).max(1_000_000).default(512),
  /** Mean event-loop delay in ms (over 500 ms) beyond which new requests are shed with 503 OVERLOADED; 0: off. Example: 100. */
  SHED_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(100),
  /** Proxies (load balancer, ingress) in front of the gateway whose X-Forwarded-For is trusted for the client IP; 0: the socket's address. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * Port of Prometheus /metrics, apart from the public port, e.g. 9464. Unset: /metrics is served on
   * the public port outside production only; production always needs its own port (default 9464).
   */
  METRICS_PORT: portSchema.optional(),
  /** pino level. */
  LOG_LEVEL: logLevelSchema,
  /**
   * Which requests get an access-log line: problems (5xx, 402, 409, slow, aborted, plus a sample of the
   * rest), all (one per request: debugging), or off. Metrics count every request whatever this says.
   */
  ACCESS_LOG: z.enum(["problems", "all", "off"]).default("problems"),
  /** A request slower than this gets an access-log line (problems mode), in ms. Example: 1000. */
  ACCESS_LOG_SLOW_MS: z.coerce.number().int().min(1).max(600_000).default(1_000),
  /** The share of the other requests that get a line anyway (problems mode), as examples with their trace ids; 0: none. Example: 0.01. */
  ACCESS_LOG_SAMPLE: z.coerce.number().min(0).max(1).default(0.01),
});

export type Config = z.infer<typeof configSchema>;

/** Room in a stop for what is not an execute in flight: closing the clients, the telemetry flush. */
const SHUTDOWN_MARGIN_MS = 10_000;

/**
 * How long a stop (SIGTERM) may take: the HTTP server stops taking requests and waits for those in
 * flight, an execute for up to EXECUTE_DEADLINE_MS, so a rollout of the gateway cuts no answer.
 * k8s terminationGracePeriodSeconds must hold it after the preStop sleep.
 */
export function shutdownDeadlineMs(config: Pick<Config, "EXECUTE_DEADLINE_MS">): number {
  return config.EXECUTE_DEADLINE_MS + SHUTDOWN_MARGIN_MS;
}

/** The access-log policy of the observe middleware. */
export function accessLogPolicy(config: Pick<Config, "ACCESS_LOG" | "ACCESS_LOG_SLOW_MS" | "ACCESS_LOG_SAMPLE">): AccessLogPolicy {
  return { mode: config.ACCESS_LOG, slowMs: config.ACCESS_LOG_SLOW_MS, sample: config.ACCESS_LOG_SAMPLE };
}

/**
 * The port /metrics gets of its own, or undefined when it is served on the public port. /metrics
 * (route templates, status counts, process data) is not for the public: production always has its
 * own port (9464 unless METRICS_PORT says otherwise), which a NetworkPolicy lets only the scraper reach.
 */
export function metricsPortOf(config: Pick<Config, "METRICS_PORT" | "PORT" | "APP_ENV">): number | undefined {
  const port = config.METRICS_PORT ?? (devHelpersEnabled(config.APP_ENV) ? undefined : 9464);
  // The public port named again means "on the public port" (0 is "any free port", never the public one).
  return port !== undefined && (port === 0 || port !== config.PORT) ? port : undefined;
}
