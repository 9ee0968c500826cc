// Starts the real gateway (startGatewayApp, as main does) on a free loopback port against real
// backend addresses, with its own backend clients and, when asked, /metrics on a port of its own.
import { createCatalogClient, createExecutorClient, createLedgerClient, createRouterClient } from "@agentic/clients";
import { createLogger, parsePrivateKey, serviceIdentity, startMetricsServer, type Logger } from "@agentic/platform";
import { testIdentities } from "@agentic/testing";
import type { AuthOptions } from "../src/middleware/auth";
import { startGatewayApp, type Backend, type GatewayConfig } from "../src/app";
import { metricsPortOf } from "../src/config";
import type { LimitsConfig } from "../src/limits";
import type { KeyLimitsSource } from "../src/limits/key-limits";

export const BASE_PATH = "/api/agentic-api";

/** An address nothing listens on: calls to a backend the test did not start answer 503. */
const NOWHERE = "127.0.0.1:1";

export interface TestGateway {
  /** Origin, e.g. http://127.0.0.1:40123 */
  origin: string;
  /** Origin plus base path. */
  baseUrl: string;
  /** The port of /metrics when it has its own. */
  metricsPort: number | undefined;
  stop(): Promise<void>;
}

export interface TestGatewayOptions {
  catalogAddress: string;
  /** Ledger address; without one, authenticated routes answer 503 (nothing listens there). */
  ledgerAddress?: string;
  /** Router address; without one, recommend answers 503. */
  routerAddress?: string;
  /** Executor address; without one, execute answers 503. */
  executorAddress?: string;
  /** EXECUTE_DEADLINE_MS (default 30 s). */
  executeDeadlineMs?: number;
  devRoutes?: boolean;
  /** APP_ENV as the gateway reads it (default: "test", or "production" with devRoutes: false); null leaves it unset. */
  appEnv?: "development" | "test" | "production" | null;
  /** Version poll of the in-memory catalog answers (default: one minute, i.e. effectively off). */
  catalogRefreshMs?: number;
  /** MCP_GENERIC_TOOLS_ABOVE (default: production's). */
  mcpGenericToolsAbove?: number;
  auth?: Partial<AuthOptions>;
  /** Parser timeouts (defaults as in production). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** A port of its own for /metrics (0: any free one); without it /metrics is on the public port, as outside production. */
  metricsPort?: number;
  /** Logger of the app (default: silent). */
  logger?: Logger;
  /** Request limits and load shedding (default: limits too high to matter and no shedding, so other tests never meet them). */
  limits?: Partial<Omit<LimitsConfig, "EXECUTE_DEADLINE_MS">> & { TRUST_PROXY_HOPS?: number };
  /** Where each key's limits come from (default: the key's ledger record, over the RATE_LIMIT_* values). */
  keyLimits?: KeyLimitsSource;
  /** CONSOLE_DEV_SERVER_URL: /console proxied to this Vite dev server (dev routes only). */
  consoleDevServerUrl?: string;
  /** The access-log policy (default: problems only, no sampled lines, so what a test reads is deterministic). */
  accessLog?: Partial<Pick<GatewayConfig, "ACCESS_LOG" | "ACCESS_LOG_SLOW_MS" | "ACCESS_LOG_SAMPLE">>;
}

const UNLIMITED = {
  RATE_LIMIT_RPS: 100_000,
  RATE_LIMIT_BURST: 100_000,
  RATE_LIMIT_MAX_IN_FLIGHT: 100_000,
  RATE_LIMIT_UNAUTHENTICATED_PER_MIN: 1_000_000,
  RATE_LIMIT_REDIS_PREFIX: "agentic:gateway-test:",
  SHED_MAX_IN_FLIGHT: 0,
  SHED_EVENT_LOOP_DELAY_MS: 0,
  TRUST_PROXY_HOPS: 0,
};

export async function startTestGateway(opts: TestGatewayOptions): Promise<TestGateway> {
  const given: Record<Backend, string | undefined> = {
    catalog: opts.catalogAddress,
    ledger: opts.ledgerAddress,
    router: opts.routerAddress,
    executor: opts.executorAddress,
  };
  const config = {
    PORT: 0,
    ...(opts.appEnv === null ? {} : { APP_ENV: opts.appEnv ?? (opts.devRoutes === false ? "production" : "test") }),
    // The gateway's identity of testIdentities(), which the ledger harness trusts.
    SERVICE_IDENTITY_KEY: parsePrivateKey(testIdentities().privateKeys.gateway),
    CATALOG_ADDR: opts.catalogAddress,
    LEDGER_ADDR: opts.ledgerAddress ?? NOWHERE,
    ROUTER_ADDR: opts.routerAddress ?? NOWHERE,
    EXECUTOR_ADDR: opts.executorAddress ?? NOWHERE,
    API_BASE_PATH: BASE_PATH,
    BODY_LIMIT: "64kb",
    // Production's 5 s, not less: a loaded test machine (CI runs two test files at once) must not turn a
    // slow catalog read into a 503 UNAVAILABLE.
    BACKEND_DEADLINE_MS: 5_000,
    EXECUTE_DEADLINE_MS: opts.executeDeadlineMs ?? 30_000,
    CATALOG_REFRESH_MS: opts.catalogRefreshMs ?? 60_000,
    MCP_GENERIC_TOOLS_ABOVE: opts.mcpGenericToolsAbove ?? 200,
    HEADERS_TIMEOUT_MS: opts.headersTimeoutMs ?? 10_000,
    REQUEST_TIMEOUT_MS: opts.requestTimeoutMs ?? 30_000,
    ...(opts.metricsPort !== undefined ? { METRICS_PORT: opts.metricsPort } : {}),
    ...UNLIMITED,
    ...opts.limits,
    ACCESS_LOG: "problems" as const,
    ACCESS_LOG_SLOW_MS: 1_000,
    ACCESS_LOG_SAMPLE: 0,
    ...opts.accessLog,
    ...(opts.consoleDevServerUrl ? { CONSOLE_DEV_SERVER_URL: opts.consoleDevServerUrl } : {}),
  };
  const identity = serviceIdentity("gateway", config.SERVICE_IDENTITY_KEY);
  const clients = {
    catalog: createCatalogClient(config.CATALOG_ADDR, config.BACKEND_DEADLINE_MS, identity),
    ledger: createLedgerClient(config.LEDGER_ADDR, config.BACKEND_DEADLINE_MS, identity),
    router: createRouterClient(config.ROUTER_ADDR, config.BACKEND_DEADLINE_MS, identity),
    executor: createExecutorClient(config.EXECUTOR_ADDR, config.EXECUTE_DEADLINE_MS, identity),
  };
  const closeClients = () => Object.values(clients).forEach((client) => client.close());
  const metricsPort = metricsPortOf(config);
  let metrics: Awaited<ReturnType<typeof startMetricsServer>> | undefined;
  let gateway: Awaited<ReturnType<typeof startGatewayApp>>;
  try {
    metrics = metricsPort !== undefined ? await startMetricsServer(metricsPort) : undefined;
    gateway = await startGatewayApp({
      config,
      clients,
      metricsOnPublicPort: metrics === undefined,
      host: "127.0.0.1",
      // /readyz checks the backends the test started.
      readinessOf: (Object.keys(given) as Backend[]).filter((name) => given[name] !== undefined),
      ...(opts.auth ? { auth: opts.auth } : {}),
      ...(opts.keyLimits ? { keyLimits: opts.keyLimits } : {}),
      logger: opts.logger ?? createLogger("gateway-test", "silent"),
    });
  } catch (err) {
    closeClients();
    await metrics?.close();
    throw err;
  }
  const origin = `http://127.0.0.1:${gateway.port}`;
  return {
    origin,
    baseUrl: origin + BASE_PATH,
    metricsPort: metrics?.port,
    async stop() {
      await gateway.stop();
      closeClients();
      await metrics?.close();
    },
  };
}
