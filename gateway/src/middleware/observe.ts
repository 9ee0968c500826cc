// One histogram sample per request, and an access-log line for the requests worth one. Labels use
// the route template ("/domains/:domainKey"), never the raw path, so series stay bounded.
//
// The log policy (ACCESS_LOG): the histogram already counts every request by route and status, and
// every request that reaches a backend is traced, so a line per request only repeats them (at 32
// connections it was 33 MB of logs in 90 s). "problems", the default, writes a line for what an SRE
// looks for: server errors (5xx, level error), payment refusals (402) and conflicts such as a reused
// Idempotency-Key (409), requests slower than ACCESS_LOG_SLOW_MS, requests the client abandoned
// before its answer (an execute may still be paid for), plus a sample (ACCESS_LOG_SAMPLE) of
// everything else as examples with their trace ids. "all" writes one line per request (debugging),
// "off" none. Probes and scrapes are never logged.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "@agentic/platform";
import type { GatewayMetrics, RequestSeries } from "../metrics";

export type AccessLogMode = "problems" | "all" | "off";

export interface AccessLogPolicy {
  mode: AccessLogMode;
  /** A request slower than this is logged (problems mode), in ms. */
  slowMs: number;
  /** The share of the other requests logged (problems mode), 0..1. */
  sample: number;
}

/** Paths probes and scrapers hit every few seconds: measured, never logged. */
const QUIET_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/** Statuses always worth a line: money refused (402) and conflicts (409: a key reused, a request still running). */
const NOTABLE_CLIENT_STATUSES = new Set([402, 409]);

/** Level of a request's log line: server errors are errors, client errors and the other problems warnings, the rest info. */
function levelFor(statusCode: number, problem: boolean): "error" | "warn" | "info" {
  return statusCode >= 500 ? "error" : statusCode >= 400 || problem ? "warn" : "info";
}

/** What the access log and the histogram need of one finished request. */
export interface FinishedRequest {
  method: string;
  url: string;
  route: string;
  status: number;
  /** The public code of an ErrorResponse (PROVIDER_ERROR, UNAVAILABLE, ...), when one was sent. */
  errorCode?: string;
  ms: number;
  userId?: string;
  aborted?: boolean;
}

/** Records finished requests: the histogram always, the access log when the policy wants a line. */
export class RequestRecorder {
  constructor(
    private readonly logger: Logger,
    private readonly metrics: Pick<GatewayMetrics, "requestSeries">,
    private readonly policy: AccessLogPolicy,
  ) {}

  /** The histogram series of requests like these, for a caller that records many alike (pass it to `record`). */
  series(method: string, route: string, status: number): RequestSeries {
    return this.metrics.requestSeries(method, route, status);
  }

  /** `series`, when given, is `r`'s own (from `series()`), so it is not looked up again. */
  record(r: FinishedRequest, quiet = false, series = this.metrics.requestSeries(r.method, r.route, r.status, r.errorCode)): void {
    series.observe(r.ms / 1000);
    const { mode } = this.policy;
    if (quiet || mode === "off") return;
    const problem = r.status >= 500 || NOTABLE_CLIENT_STATUSES.has(r.status) || r.aborted === true || r.ms >= this.policy.slowMs;
    if (mode === "problems" && !problem && !(this.policy.sample > 0 && Math.random() < this.policy.sample)) return;
    this.logger[levelFor(r.status, problem)](
      {
        req: { method: r.method, url: r.url },
        res: { statusCode: r.status },
        route: r.route,
        durationMs: Math.round(r.ms * 10) / 10,
        ...(r.userId !== undefined ? { userId: r.userId } : {}),
        ...(r.aborted ? { aborted: true } : {}),
      },
      r.aborted
        ? "request aborted"
        : r.status >= 500
          ? "request errored"
          : r.ms >= this.policy.slowMs
            ? "slow request"
            : "request completed",
    );
  }
}

/**
 * Mount at the start of a sub-router: records its base path, which express resets when an error
 * leaves the sub-router (so error responses would otherwise lose the prefix of their template).
 */
export const rememberBasePath: RequestHandler = (req, res, next) => {
  res.locals.basePath = req.baseUrl;
  next();
};

function routeTemplate(req: Request, res: Response): string {
  return req.route ? `${res.locals.basePath ?? req.baseUrl}${req.route.path}` : "unmatched";
}

/**
 * Starts observing one request through express: when its answer is done (or the client went away
 * first), the recorder gets its route template, status, duration and user. Headers (and so API
 * keys) never reach the log.
 */
export function observe(recorder: RequestRecorder, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  // 'close' comes once per response, after 'finish' when it was sent in full.
  res.once("close", () => {
    const request = req as Request;
    const response = res as Response;
    recorder.record(
      {
        method: request.method,
        url: request.originalUrl,
        route: routeTemplate(request, response),
        status: res.statusCode,
        errorCode: response.locals.errorCode,
        ms: performance.now() - started,
        userId: response.locals.caller?.userId,
        aborted: !res.writableFinished,
      },
      QUIET_PATHS.has(request.path),
    );
  });
}
