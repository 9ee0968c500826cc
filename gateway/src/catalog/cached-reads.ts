// Cached catalog reads, answered before express. Agents read the catalog in loops, and its answers
// are immutable per catalog version: a GET whose rendered answer the catalog cache already holds
// (or /openapi.json) is answered from memory here, 200 with its strong ETag or 304, with the same
// headers as through express, and recorded in the histogram and the access log like any request.
// Anything else (a miss, another method, a request with a body or without Host) goes on to express,
// which loads a miss through the catalog and answers every error.
//
// Not shed by the load shedder: answering from memory costs about what a 503 would.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { RequestRecorder } from "../middleware/observe";
import type { RequestSeries } from "../metrics";
import { SECURITY_HEADERS } from "../middleware/response-headers";
import type { RenderedBody, RenderedCatalogCache } from "./rendered-cache";
import { isNotModified } from "./not-modified";

export interface CachedReadsOptions {
  basePath: string;
  cache: RenderedCatalogCache;
  /** Answers that never change while the process lives (the OpenAPI document), by path under basePath. */
  fixed: ReadonlyMap<string, RenderedBody>;
  recorder: RequestRecorder;
}

/** How a catalog answer is sent (200, or 304 without the body's own headers) and recorded, worked out once per answer. */
interface Answering {
  ok: OutgoingHttpHeaders;
  notModified: OutgoingHttpHeaders;
  /** The route template it is recorded under, and its histogram series for each status. */
  route: string;
  okSeries: RequestSeries;
  notModifiedSeries: RequestSeries;
}

/**
 * Returns a handler that answers a cached read and says true, or leaves the request alone and says
 * false. It runs before the server's 'request' event (see answerFirst), so these reads are never
 * traced: a span would cost more than the answer.
 */
export function cachedReads(opts: CachedReadsOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { basePath, cache, fixed, recorder } = opts;
  const prefix = `${basePath}/`;
  const security = Object.fromEntries(SECURITY_HEADERS);
  const answeringOf = new WeakMap<RenderedBody, Answering>();
  const answering = (answer: RenderedBody): Answering => {
    let a = answeringOf.get(answer);
    if (!a) {
      // Clients may keep the answer but must revalidate: the catalog can change at any deploy.
      const notModified = { ...security, ETag: answer.etag, "Cache-Control": "no-cache" };
      const route = basePath + answer.route;
      a = {
        notModified,
        ok: {
          ...notModified,
          // JSON unless the answer names its own (SKILL.md, llms.txt).
          "Content-Type": "application/json; charset=utf-8",
          ...answer.headers,
          "Content-Length": answer.body.length,
        },
        route,
        okSeries: recorder.series("GET", route, 200),
        notModifiedSeries: recorder.series("GET", route, 304),
      };
      answeringOf.set(answer, a);
    }
    return a;
  };

  /** The answer in memory for `req`, if this handler answers it. */
  const answerOf = (req: IncomingMessage): RenderedBody | undefined => {
    const url = req.url ?? "";
    if (req.method !== "GET" || !url.startsWith(prefix)) return undefined;
    // A body on a GET, or no Host on HTTP/1.1, is for express to refuse or read.
    const h = req.headers;
    if (h["content-length"] !== undefined || h["transfer-encoding"] !== undefined || (h.host === undefined && req.httpVersionMinor >= 1))
      return undefined;
    // With a query, only an answer kept under that exact path and query (a page, a filtered list) is
    // served here: another query may mean another answer, so express decides.
    const key = url.slice(basePath.length);
    const answer = url.includes("?") ? cache.peek(key) : (fixed.get(key) ?? cache.peek(key));
    return answer?.route === undefined ? undefined : answer;
  };

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const started = performance.now();
    const answer = answerOf(req);
    if (!answer) return false;
    const a = answering(answer);
    const notModified = isNotModified(req.headers, answer.etag);
    if (notModified) {
      res.writeHead(304, a.notModified);
      res.end();
    } else {
      res.writeHead(200, a.ok);
      res.end(answer.body);
    }
    recorder.record(
      { method: "GET", url: req.url ?? "", route: a.route, status: notModified ? 304 : 200, ms: performance.now() - started },
      false,
      notModified ? a.notModifiedSeries : a.okSeries,
    );
    return true;
  };
}
