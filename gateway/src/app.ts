// Starts the gateway on given backend clients: request limits, the in-memory catalog answers,
// readiness checks, the express app (middleware in order, routes mounted) and its HTTP server,
// listening. `stop()` undoes it in reverse, the HTTP server first; the clients stay open (their
// owner closes them). main.ts runs it for production and local use; test/harness.ts runs the very
// same wiring in tests.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Express } from "express";
import { devHelpersEnabled, type Logger } from "@agentic/platform";
import type { CatalogClient, ExecutorClient, LedgerClient, RouterClient } from "@agentic/clients";
import { accessLogPolicy, type Config } from "./config";
import { buildOpenApiDocument } from "./openapi/openapi";
import { catalogRoutes, readDomains } from "./routes/catalog";
import { capabilityRoutesRoutes } from "./routes/capability-routes";
import { RouteHealthCache } from "./catalog/route-health-cache";
import { agentDocsRoutes } from "./agent-docs/routes";
import { render, RenderedCatalogCache } from "./catalog/rendered-cache";
import { catalogSearchRoutes } from "./routes/catalog-search";
import { sendRendered } from "./catalog/send-rendered";
import { cachedReads } from "./catalog/cached-reads";
import { apiEntry } from "./middleware/api-entry";
import { healthRoutes, type CatalogAnswers } from "./routes/health";
import { BackendMonitor } from "./health/backend-monitor";
import { nameUnavailableBackends } from "./health/name-unavailable-backends";
import { walletRoutes } from "./routes/wallet";
import { topUpRoutes } from "./routes/top-up";
import { executionRoutes } from "./routes/executions";
import { devInitRoutes } from "./routes/dev-init";
import { recommendRoutes } from "./routes/recommend";
import { routeTaskRoutes } from "./routes/route-task";
import { executeRoutes } from "./routes/execute";
import { quoteRoutes } from "./routes/quote";
import { metricsRoutes } from "./routes/metrics";
import { mcpRoutes } from "./mcp/routes";
import { consoleRoutes } from "./routes/console";
import { usageExportRoutes } from "./routes/usage-export";
import { usageSummaryRoutes } from "./routes/usage-summary";
import { overviewRoutes } from "./routes/overview";
import { requireApiKey, type AuthOptions } from "./middleware/auth";
import { errorHandler, notFoundHandler } from "./middleware/errors";
import { RequestRecorder } from "./middleware/observe";
import { edge } from "./middleware/edge";
import { answerClientErrors } from "./http/client-errors";
import { answerFirst } from "./http/answer-first";
import { limitCallers } from "./limits/limit-callers";
import { startLimits, type LimitsConfig } from "./limits";
import type { KeyLimitsSource } from "./limits/key-limits";
import { createGatewayMetrics } from "./metrics";

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
    | "CONSOLE_DEV_SERVER_URL"
    | "BODY_LIMIT"
    | "CATALOG_REFRESH_MS"
    | "MCP_GENERIC_TOOLS_ABOVE"
    | "HEADERS_TIMEOUT_MS"
    | "REQUEST_TIMEOUT_MS"
    | "ACCESS_LOG"
    | "ACCESS_LOG_SLOW_MS"
    | "ACCESS_LOG_SAMPLE"
  >;

export type Backend = "catalog" | "ledger" | "router" | "executor";
export const BACKENDS: readonly Backend[] = ["catalog", "ledger", "router", "executor"];

/** The gRPC clients of the four backends, opened (and closed) by the caller. */
export interface BackendClients {
  catalog: CatalogClient;
  ledger: LedgerClient;
  router: RouterClient;
  executor: ExecutorClient;
}

export interface GatewayAppOptions {
  config: GatewayConfig;
  clients: BackendClients;
  logger: Logger;
  /** Serve /metrics on the public port (false when it has a port of its own: always in production). */
  metricsOnPublicPort: boolean;
  /** Interface to listen on; every interface when omitted. */
  host?: string;
  /** Backends /readyz and the background health checks watch (default: all four). Tests leave out the ones they do not start. */
  readinessOf?: readonly Backend[];
  /** Tuning of the API-key cache (tests shorten it). */
  auth?: Partial<AuthOptions>;
  /** Where each API key's limits come from; default: the key's ledger record, over the RATE_LIMIT_* configuration. */
  keyLimits?: KeyLimitsSource;
}

export interface GatewayApp {
  app: Express;
  server: Server;
  /** The port the server listens on (the real one when config.PORT is 0). */
  port: number;
  /** Closes the HTTP server, then the catalog answers, readiness checks and limits. Idempotent. */
  stop(): Promise<void>;
}

/** Most bytes of rendered catalog answers the gateway keeps (see RenderedCatalogCache). */
const RENDERED_CATALOG_MAX_BYTES = 32 * 1024 * 1024;

/** Each backend's health, checked this often in the background (so errors name what is down), each check at most this long. */
const BACKEND_CHECK_INTERVAL_MS = 1_000;
const BACKEND_CHECK_TIMEOUT_MS = 500;

export async function startGatewayApp(opts: GatewayAppOptions): Promise<GatewayApp> {
  const { config, logger } = opts;
  const metrics = createGatewayMetrics();
  const addresses: Record<Backend, string> = {
    catalog: config.CATALOG_ADDR,
    ledger: config.LEDGER_ADDR,
    router: config.ROUTER_ADDR,
    executor: config.EXECUTOR_ADDR,
  };
  const monitor = new BackendMonitor(Object.fromEntries((opts.readinessOf ?? BACKENDS).map((name) => [name, addresses[name]])), {
    timeoutMs: BACKEND_CHECK_TIMEOUT_MS,
    intervalMs: BACKEND_CHECK_INTERVAL_MS,
    logger,
  });
  const clients = nameUnavailableBackends(opts.clients, monitor);
  const catalogCache = new RenderedCatalogCache(
    async () => (await clients.catalog.getCatalogVersion({})).catalogVersion,
    // Bounded by count and by bytes: pages of a large catalog are up to 64 KB each, and the whole
    // GET /domains of 100x today's catalog 684 KB; what is not read again leaves first.
    { refreshMs: config.CATALOG_REFRESH_MS, maxEntries: 2_000, maxBytes: RENDERED_CATALOG_MAX_BYTES },
    logger,
  );
  catalogCache.start();
  // The domain list is read ahead while the catalog answers, so a catalog outage later finds the catalog's answers in memory.
  const catalogAnswers: CatalogAnswers = {
    inMemory: () => catalogCache.peek("/domains") !== undefined,
    warm: async () => void (await catalogCache.get("/domains", readDomains(clients.catalog), "/domains")),
  };
  monitor.start(async (states) => {
    if (states.catalog !== "unavailable" && !catalogAnswers.inMemory()) await catalogAnswers.warm();
  });
  const limits = await startLimits(config, logger, metrics, opts.keyLimits);
  const closeParts = async () => {
    catalogCache.stop();
    monitor.close();
    await limits.close();
  };

  const devRoutes = devHelpersEnabled(config.APP_ENV);
  const basePath = config.API_BASE_PATH;
  const app = express();
  app.disable("x-powered-by");
  // Catalog answers carry their own strong ETag; hashing every other body for a weak one costs CPU for nothing.
  app.set("etag", false);
  if (config.TRUST_PROXY_HOPS > 0) app.set("trust proxy", config.TRUST_PROXY_HOPS);

  const api = express.Router();
  api.use(apiEntry(config.BODY_LIMIT));
  // The capability calls before the catalog's reads: every router mounted ahead of a route is walked by each of its requests.
  const auth = limitCallers(requireApiKey(clients.ledger, opts.auth), limits.callers);
  api.use(recommendRoutes(clients.router, auth));
  api.use(routeTaskRoutes(clients.router, auth));
  api.use(executeRoutes(clients.executor, auth, clients.ledger));
  api.use(quoteRoutes(clients.executor, auth));
  const openapiBody = { ...render(buildOpenApiDocument({ basePath, devRoutes }), "openapi"), route: "/openapi.json" };
  api.get("/openapi.json", (req, res) => sendRendered(req, res, openapiBody));
  api.use(capabilityRoutesRoutes(clients.catalog, catalogCache, new RouteHealthCache(clients.router, logger)));
  api.use(catalogRoutes(clients.catalog, catalogCache));
  api.use(catalogSearchRoutes(clients.catalog, clients.router, catalogCache));
  api.use(agentDocsRoutes(clients.catalog, catalogCache));
  api.use(usageExportRoutes(clients.ledger, auth));
  api.use(usageSummaryRoutes(clients.ledger, auth));
  api.use(overviewRoutes(clients.ledger, auth));
  api.use(walletRoutes(clients.ledger, auth, { allowUserOverride: devRoutes }));
  api.use(topUpRoutes(clients.ledger, auth));
  api.use(executionRoutes(clients.ledger, auth));
  api.use(
    mcpRoutes({
      authenticate: requireApiKey(clients.ledger, opts.auth),
      callers: limits.callers,
      genericToolsAbove: config.MCP_GENERIC_TOOLS_ABOVE,
    }),
  );
  if (devRoutes) api.use(devInitRoutes(clients.ledger, clients.catalog));

  const recorder = new RequestRecorder(logger, metrics, accessLogPolicy(config));
  app.use(edge(recorder, config.BODY_LIMIT));
  app.use(healthRoutes(monitor, catalogAnswers));
  if (opts.metricsOnPublicPort) app.use(metricsRoutes());
  // After the probes and /metrics: those are never shed.
  app.use(limits.shedder.middleware);
  app.use(
    `${basePath}/console`,
    consoleRoutes(
      devRoutes && config.CONSOLE_DEV_SERVER_URL ? { devServerUrl: config.CONSOLE_DEV_SERVER_URL, mountPath: `${basePath}/console` } : {},
    ),
  );
  app.use(basePath, api);
  app.use(notFoundHandler(basePath));
  app.use(errorHandler(logger));

  const server = createServer(
    {
      // Timeouts are checked this often (Node's default, 30 s, would let a slow client hold a socket that long).
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(config.HEADERS_TIMEOUT_MS / 4))),
      // Checked by requireHost, so a request without Host gets an ErrorResponse rather than Node's empty 400.
      requireHostHeader: false,
    },
    app,
  );
  // Cached catalog reads are answered from memory before express, and before the tracing
  // instrumentation sees the request (a span costs more than the answer); everything else goes
  // on to express, traced.
  answerFirst(server, cachedReads({ basePath, cache: catalogCache, fixed: new Map([["/openapi.json", openapiBody]]), recorder }));
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
    await closeParts();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, basePath }, "gateway listening");

  let stopping: Promise<void> | undefined;
  return {
    app,
    server,
    port,
    stop() {
      stopping ??= (async () => {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await closeParts();
      })();
      return stopping;
    },
  };
}
