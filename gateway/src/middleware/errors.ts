// Last-resort handlers: unknown paths get a JSON 404, and every thrown error becomes an
// ErrorResponse (body-parser errors → 4xx, backend gRPC errors → the mapped status).
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "@agentic/platform";
import { HttpError, sendBackendError, sendError } from "../errors";

/** JSON 404 for every unknown path; the hint points at the document under `basePath`. */
export function notFoundHandler(basePath: string): RequestHandler {
  const hint = `See GET ${basePath}/openapi.json for the endpoints.`;
  return (req, res) => sendError(res, 404, "NOT_FOUND", `no route for ${req.method} ${req.path}`, hint);
}

/** Errors raised by express.json() carry a `type` and an HTTP `status`. */
const BODY_ERRORS: Record<string, { status: number; code: string; hint: string }> = {
  "entity.parse.failed": { status: 400, code: "INVALID_JSON", hint: "Send a valid JSON object as the request body." },
  "entity.too.large": { status: 413, code: "PAYLOAD_TOO_LARGE", hint: "Send a smaller body." },
  "encoding.unsupported": { status: 415, code: "UNSUPPORTED_ENCODING", hint: "Send the body as UTF-8 JSON." },
  "charset.unsupported": { status: 415, code: "UNSUPPORTED_ENCODING", hint: "Send the body as UTF-8 JSON." },
  "request.aborted": { status: 400, code: "REQUEST_ABORTED", hint: "The request body was not received in full." },
};

/** Other errors body-parser raises with a client status (e.g. a gzip body that is not gzip) carry `expose`. */
function isExposedClientError(err: unknown): err is { status: number; message: string } {
  if (typeof err !== "object" || err === null) return false;
  const { expose, status } = err as { expose?: unknown; status?: unknown };
  return expose === true && typeof status === "number" && status >= 400 && status <= 499;
}

/** The router's decoding of a path parameter failed (a bare `%` or `%zz`): it raises a URIError with status 400. */
function isUndecodablePath(err: unknown): boolean {
  return (
    err instanceof URIError ||
    (typeof err === "object" &&
      err !== null &&
      (err as { status?: unknown }).status === 400 &&
      /decode param/i.test(String((err as Error).message)))
  );
}

function isGrpcError(err: unknown): boolean {
  return typeof err === "object" && err !== null && typeof (err as { code?: unknown }).code === "number" && "metadata" in err;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (err instanceof HttpError) {
      sendError(res, err.httpStatus, err.code, err.message, err.hint);
      return;
    }
    const bodyError = BODY_ERRORS[(err as { type?: string })?.type ?? ""];
    if (bodyError) {
      sendError(res, bodyError.status, bodyError.code, (err as Error).message, bodyError.hint);
      return;
    }
    if (isUndecodablePath(err)) {
      sendError(
        res,
        400,
        "INVALID_PATH",
        "The path has malformed percent-encoding.",
        "Percent-encode path segments correctly (e.g. %20, not %zz or a bare %).",
      );
      return;
    }
    if (isExposedClientError(err)) {
      sendError(
        res,
        err.status,
        "INVALID_BODY",
        err.message,
        "Send the body as plain (or correctly encoded) UTF-8 JSON with Content-Type: application/json.",
      );
      return;
    }
    if (isGrpcError(err)) {
      sendBackendError(res, err);
      return;
    }
    logger.error({ err, method: req.method, path: req.path }, "unhandled error");
    sendError(res, 500, "INTERNAL", "internal error", "Retry later; if it persists, report the traceId.");
  };
}
