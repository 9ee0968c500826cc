// One log line and one histogram sample per request. Labels use the route template
// ("/domains/:domainKey"), never the raw path, so series stay bounded.
import type { RequestHandler } from "express";
import type { Logger } from "@agentic/platform";
import type { GatewayMetrics } from "../metrics";

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

/** Level of a request's log line: server errors are errors, client errors warnings. */
function levelFor(statusCode: number): "error" | "warn" | "info" {
  return statusCode >= 500 ? "error" : statusCode >= 400 ? "warn" : "info";
}

/**
 * Times every request into the histogram and, except for probes, logs one JSON line when it
 * finishes: method, url, route template, status, duration, and the user when authenticated. Only
 * what an SRE needs; headers (and so API keys) never reach the log.
 */
export function observeRequests(logger: Logger, metrics: Pick<GatewayMetrics, "requestServed">): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const quiet = QUIET_PATHS.has(req.path);
    res.once("finish", () => {
      const route = routeTemplate(req, res);
      const seconds = (performance.now() - started) / 1000;
      metrics.requestServed(req.method, route, res.statusCode, seconds);
      if (quiet) return;
      const { statusCode } = res;
      const userId = res.locals.caller?.userId;
      logger[levelFor(statusCode)](
        {
          req: { method: req.method, url: req.originalUrl },
          res: { statusCode },
          route,
          durationMs: Math.round(seconds * 10_000) / 10,
          ...(userId !== undefined ? { userId } : {}),
        },
        statusCode >= 500 ? "request errored" : "request completed",
      );
    });
    if (!quiet) {
      // The client went away before the response was sent: worth a line (an execute may still be paid for).
      res.once("close", () => {
        if (res.writableFinished) return;
        const { statusCode } = res;
        logger[levelFor(statusCode)](
          {
            req: { method: req.method, url: req.originalUrl },
            res: { statusCode },
            route: routeTemplate(req, res),
            userId: res.locals.caller?.userId,
          },
          "request aborted",
        );
      });
    }
    next();
  };
}
