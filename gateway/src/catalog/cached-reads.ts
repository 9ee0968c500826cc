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

/** The headers of a catalog answer (200, or 304 without the body's own), built once per answer. */
interface AnswerHeaders {
  ok: OutgoingHttpHeaders;
  notModified: OutgoingHttpHeaders;
}

/**
 * Returns a handler that answers a cached read and says true, or leaves the request alone and says
 * false; and `answers(req)`, whether it would answer `req` from memory (such reads are left untraced:
 * a span costs more than the answer).
 */
export function cachedReads(opts: CachedReadsOptions): ((req: IncomingMessage, res: ServerResponse) => boolean) & {
  answers(req: IncomingMessage): boolean;
} {
  const { basePath, cache, fixed, recorder } = opts;
  const prefix = `${basePath}/`;
  const security = Object.fromEntries(SECURITY_HEADERS);
  const headersOf = new WeakMap<RenderedBody, AnswerHeaders>();
  const headers = (answer: RenderedBody): AnswerHeaders => {
    let h = headersOf.get(answer);
    if (!h) {
      // Clients may keep the answer but must revalidate: the catalog can change at any deploy.
      const notModified = { ...security, ETag: answer.etag, "Cache-Control": "no-cache" };
      h = {
        notModified,
        ok: {
          ...notModified,
          ...answer.headers,
          "Content-Type": "application/json; charset=utf-8",
          "Content-Length": answer.body.length,
        },
      };
      headersOf.set(answer, h);
    }
    return h;
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

  /** What `answers` found for a request, so the handler that follows does not look it up again. */
  const found = new WeakMap<IncomingMessage, RenderedBody>();

  const handle = (req: IncomingMessage, res: ServerResponse): boolean => {
    const started = performance.now();
    const answer = found.get(req) ?? answerOf(req);
    if (!answer) return false;
    const url = req.url ?? "";
    const h = req.headers;
    const notModified = isNotModified(h, answer.etag);
    if (notModified) {
      res.writeHead(304, headers(answer).notModified);
      res.end();
    } else {
      res.writeHead(200, headers(answer).ok);
      res.end(answer.body);
    }
    recorder.record({
      method: "GET",
      url,
      route: basePath + answer.route,
      status: notModified ? 304 : 200,
      ms: performance.now() - started,
    });
    return true;
  };
  const answers = (req: IncomingMessage): boolean => {
    const answer = answerOf(req);
    if (answer) found.set(req, answer);
    return answer !== undefined;
  };
  return Object.assign(handle, { answers });
}
