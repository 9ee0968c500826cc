// Builds the gateway's express app from its clients; no listening, no config reading here.
import express, { type Express, type RequestHandler } from "express";
import type { Logger } from "@agentic/platform";
import type { CatalogClient, ExecutorClient, LedgerClient, RouterClient } from "@agentic/clients";
import { buildOpenApiDocument } from "./openapi/openapi";
import { catalogRoutes } from "./routes/catalog";
import { render, type RenderedCatalogCache } from "./catalog/rendered-cache";
import { sendRendered } from "./catalog/send-rendered";
import { healthRoutes, type ReadinessCheck } from "./routes/health";
import { walletRoutes } from "./routes/wallet";
import { topUpRoutes } from "./routes/top-up";
import { executionRoutes } from "./routes/executions";
import { devInitRoutes } from "./routes/dev-init";
import { recommendRoutes } from "./routes/recommend";
import { executeRoutes } from "./routes/execute";
import { requireApiKey, type AuthOptions } from "./middleware/auth";
import { errorHandler, notFoundHandler } from "./middleware/errors";
import { observeRequests, rememberBasePath } from "./middleware/observe";
import { metricsRoutes } from "./routes/metrics";
import { refuseDeclaredOversize } from "./middleware/declared-size";
import { requireHost } from "./middleware/require-host";
import { noStoreForCallers, securityHeaders } from "./middleware/response-headers";
import { limitCallers, type CallerLimits } from "./limits/limit-callers";

export interface GatewayDeps {
  basePath: string;
  bodyLimit: string;
  /** False in production: /dev/init and ?userId= overrides do not exist there. */
  devRoutes: boolean;
  catalog: CatalogClient;
  /** Rendered catalog answers, owned (started and stopped) by the caller. */
  catalogCache: RenderedCatalogCache;
  ledger: LedgerClient;
  router: RouterClient;
  executor: ExecutorClient;
  /** Tuning of the API-key cache (tests shorten it). */
  auth?: Partial<AuthOptions>;
  readiness: ReadinessCheck[];
  /** Serve /metrics on this (public) app; false when it has its own port. */
  metricsOnPublicPort: boolean;
  /** Per-caller limits of the authenticated routes, and the load shedder in front of everything but probes. */
  limits: { callers: CallerLimits; shed: RequestHandler };
  /** Proxies in front whose X-Forwarded-For gives the client IP (0: the socket's address). */
  trustProxyHops: number;
  logger: Logger;
}

export function createApp(deps: GatewayDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  // Catalog answers carry their own strong ETag; hashing every other body for a weak one costs CPU for nothing.
  app.set("etag", false);
  if (deps.trustProxyHops > 0) app.set("trust proxy", deps.trustProxyHops);

  const openapi = buildOpenApiDocument({ basePath: deps.basePath, devRoutes: deps.devRoutes });
  const api = express.Router();
  api.use(rememberBasePath);
  api.use(express.json({ limit: deps.bodyLimit }));
  const openapiBody = render(openapi, "openapi");
  api.get("/openapi.json", (req, res) => sendRendered(req, res, openapiBody));
  api.use(catalogRoutes(deps.catalog, deps.catalogCache));
  const auth = limitCallers(requireApiKey(deps.ledger, deps.auth), deps.limits.callers);
  api.use(recommendRoutes(deps.router, auth));
  api.use(executeRoutes(deps.executor, auth, deps.ledger));
  api.use(walletRoutes(deps.ledger, auth, { allowUserOverride: deps.devRoutes }));
  api.use(topUpRoutes(deps.ledger, auth));
  api.use(executionRoutes(deps.ledger, auth));
  if (deps.devRoutes) api.use(devInitRoutes(deps.ledger, deps.catalog));

  app.use(observeRequests(deps.logger));
  app.use(requireHost);
  app.use(refuseDeclaredOversize(deps.bodyLimit));
  app.use(securityHeaders());
  app.use(noStoreForCallers);
  app.use(healthRoutes(deps.readiness));
  if (deps.metricsOnPublicPort) app.use(metricsRoutes());
  // After the probes and /metrics: those are never shed.
  app.use(deps.limits.shed);
  app.use(deps.basePath, api);
  app.use(notFoundHandler(deps.basePath));
  app.use(errorHandler(deps.logger));
  return app;
}
