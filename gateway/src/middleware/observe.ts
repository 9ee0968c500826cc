// One log line and one histogram sample per request. Labels use the route template
// ("/domains/:domainKey"), never the raw path, so series stay bounded.
import type { RequestHandler } from "express";
import { pinoHttp } from "pino-http";
import { Histogram } from "prom-client";
import { LATENCY_BUCKETS_SECONDS, singleton, type Logger } from "@agentic/platform";

/** http_server_request_duration_seconds{http_request_method, http_route, http_response_status_code} */
export const httpServerDuration = singleton(
  "http_server_request_duration_seconds",
  () =>
    new Histogram({
      name: "http_server_request_duration_seconds",
      help: "Duration of HTTP requests served by the gateway, by method, route template and status.",
      labelNames: ["http_request_method", "http_route", "http_response_status_code"] as const,
      buckets: LATENCY_BUCKETS_SECONDS,
    }),
);

/** Paths probes and scrapers hit every few seconds: measured, but not logged. */
const QUIET_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

type Req = Parameters<RequestHandler>[0];
type Res = Parameters<RequestHandler>[1];

/**
 * Mount at the start of a sub-router: records its base path, which express resets when an error
 * leaves the sub-router (so error responses would otherwise lose the prefix of their template).
 */
export const rememberBasePath: RequestHandler = (req, res, next) => {
  res.locals.basePath = req.baseUrl;
  next();
};

function routeTemplate(req: Req, res: Res): string {
  return req.route ? `${res.locals.basePath ?? req.baseUrl}${req.route.path}` : "unmatched";
}

export function observeRequests(logger: Logger): RequestHandler[] {
  const measure: RequestHandler = (req, res, next) => {
    const stop = httpServerDuration.startTimer({ http_request_method: req.method });
    res.once("finish", () => stop({ http_route: routeTemplate(req, res), http_response_status_code: res.statusCode }));
    next();
  };
  const log = pinoHttp({
    logger,
    autoLogging: { ignore: (req) => QUIET_PATHS.has((req.url ?? "").split("?")[0] ?? "") },
    // Only what an SRE needs; headers (and so API keys) never reach the log.
    serializers: {
      req: (req) => ({ method: req.method, url: req.url }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
    customProps: (req, res) => ({ route: routeTemplate(req as Req, res as Res), userId: (res as Res).locals?.caller?.userId }),
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info"),
  });
  return [measure, log];
}
