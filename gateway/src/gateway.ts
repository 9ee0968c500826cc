// Starts a gateway from its configuration: backend clients, readiness checks, the in-memory
// catalog answers, the express app and its HTTP server. main.ts and the test harness both start
// the gateway here, so the wiring exists once.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import type { Logger } from "@agentic/platform";
import { createCatalogClient, createExecutorClient, createLedgerClient, createRouterClient } from "@agentic/clients";
import type { Config } from "./config";
import { createApp } from "./app";
import { backendChecks } from "./routes/health";
import { RenderedCatalogCache } from "./catalog/rendered-cache";
import type { AuthOptions } from "./middleware/auth";
import { answerClientErrors } from "./http/client-errors";
import { startLimits, type LimitsConfig } from "./limits";
import type { KeyLimitsSource } from "./limits/key-limits";
import { devHelpersEnabled, serviceIdentity, startMetricsServer } from "@agentic/platform";

/** What the gateway reads of its configuration (see config.ts). */
export type GatewayConfig = LimitsConfig &
  Pick<
    Config,
    | "PORT"
    | "TRUST_PROXY_HOPS"
    | "APP_ENV"
    | "CATALOG_ADDR"
    | "ROUTER_ADDR"
    | "EXECUTOR_ADDR"
    | "LEDGER_ADDR"
    | "API_BASE_PATH"
    | "BODY_LIMIT"
    | "BACKEND_DEADLINE_MS"
    | "EXECUTE_DEADLINE_MS"
    | "CATALOG_REFRESH_MS"
    | "HEADERS_TIMEOUT_MS"
    | "REQUEST_TIMEOUT_MS"
    | "METRICS_PORT"
    | "SERVICE_IDENTITY_KEY"
  >;

export type Backend = "catalog" | "ledger" | "router" | "executor";
const BACKENDS: readonly Backend[] = ["catalog", "ledger", "router", "executor"];

export interface StartGatewayOptions {
  config: GatewayConfig;
  logger: Logger;
  /** Interface to listen on; every interface when omitted. */
  host?: string;
  /** Backends /readyz checks (default: all four). Tests leave out the ones they do not start. */
  readinessOf?: readonly Backend[];
  /** Tuning of the API-key cache (tests shorten it). */
  auth?: Partial<AuthOptions>;
  /** Where each API key's limits come from; default: the key's ledger record, over the RATE_LIMIT_* configuration. */
  keyLimits?: KeyLimitsSource;
}

export interface Gateway {
  app: Express;
  server: Server;
  /** The port the server listens on (the real one when config.PORT is 0). */
  port: number;
  /** The port of /metrics when it has its own, else undefined (then it is on `port`). */
  metricsPort: number | undefined;
  /** Closes the HTTP server, then the catalog cache, readiness checks and backend clients. */
  stop(): Promise<void>;
}

export async function startGateway(opts: StartGatewayOptions): Promise<Gateway> {
  const { config, logger } = opts;
  const identity = serviceIdentity("gateway", config.SERVICE_IDENTITY_KEY);
  const catalog = createCatalogClient(config.CATALOG_ADDR, config.BACKEND_DEADLINE_MS, identity);
  const ledger = createLedgerClient(config.LEDGER_ADDR, config.BACKEND_DEADLINE_MS, identity);
  const router = createRouterClient(config.ROUTER_ADDR, config.BACKEND_DEADLINE_MS, identity);
  // Execute runs a paid provider call (with fallbacks): it gets its own, longer deadline.
  const executor = createExecutorClient(config.EXECUTOR_ADDR, config.EXECUTE_DEADLINE_MS, identity);
  const addresses: Record<Backend, string> = {
    catalog: config.CATALOG_ADDR,
    ledger: config.LEDGER_ADDR,
    router: config.ROUTER_ADDR,
    executor: config.EXECUTOR_ADDR,
  };
  const readiness = backendChecks(Object.fromEntries((opts.readinessOf ?? BACKENDS).map((name) => [name, addresses[name]])));

  const catalogCache = new RenderedCatalogCache(
    async () => (await catalog.listDomains({})).catalogVersion,
    { refreshMs: config.CATALOG_REFRESH_MS, maxEntries: 2_000 },
    logger,
  );
  catalogCache.start();
  const limits = await startLimits(config, logger, opts.keyLimits);

  const closeBackends = () => {
    catalogCache.stop();
    readiness.close();
    catalog.close();
    ledger.close();
    router.close();
    executor.close();
  };

  // /metrics (route templates, status counts, process data) is not for the public: in production it
  // always has its own port (a NetworkPolicy lets only the scraper reach it).
  const metricsPort = config.METRICS_PORT ?? (devHelpersEnabled(config.APP_ENV) ? undefined : 9464);
  const metricsServer =
    metricsPort !== undefined && (metricsPort === 0 || metricsPort !== config.PORT) ? await startMetricsServer(metricsPort) : undefined;

  const app = createApp({
    basePath: config.API_BASE_PATH,
    bodyLimit: config.BODY_LIMIT,
    devRoutes: devHelpersEnabled(config.APP_ENV),
    catalog,
    catalogCache,
    ledger,
    router,
    executor,
    ...(opts.auth ? { auth: opts.auth } : {}),
    readiness,
    metricsOnPublicPort: metricsServer === undefined,
    limits: { callers: limits.callers, shed: limits.shedder.middleware },
    trustProxyHops: config.TRUST_PROXY_HOPS,
    logger,
  });
  const server = createServer(
    {
      // Timeouts are checked this often (Node's default, 30 s, would let a slow client hold a socket that long).
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(config.HEADERS_TIMEOUT_MS / 4))),
      // Checked by requireHost, so a request without Host gets an ErrorResponse rather than Node's empty 400.
      requireHostHeader: false,
    },
    app,
  );
  // Keep-alive longer than typical load balancer idle timeouts, so the LB closes first.
  server.keepAliveTimeout = 65_000;
  // Slow clients (a byte of headers or body at a time) are cut off, answered 408 by answerClientErrors.
  server.headersTimeout = config.HEADERS_TIMEOUT_MS;
  server.requestTimeout = config.REQUEST_TIMEOUT_MS;
  answerClientErrors(server, logger);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.PORT, opts.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (err) {
    closeBackends();
    await limits.close();
    await metricsServer?.close();
    throw err;
  }

  return {
    app,
    server,
    port: (server.address() as AddressInfo).port,
    metricsPort: metricsServer?.port,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      closeBackends();
      await limits.close();
      await metricsServer?.close();
    },
  };
}
