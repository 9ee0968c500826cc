// Last-resort handlers: unknown paths get a JSON 404, and every error a handler throws or passes to
// next() is answered by sendErrorResponse (the one path to an ErrorResponse).
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "@agentic/platform";
import { HttpError, isUnexpected, sendErrorResponse } from "../errors";

/** JSON 404 for every unknown path; the hint points at the document under `basePath`. */
export function notFoundHandler(basePath: string): RequestHandler {
  const hint = `See GET ${basePath}/openapi.json for the endpoints.`;
  return (req, res) => sendErrorResponse(res, new HttpError(404, "NOT_FOUND", `no route for ${req.method} ${req.path}`, hint));
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    // A bug, not a refusal: logged whole here, answered INTERNAL without its text.
    if (isUnexpected(err)) logger.error({ err, method: req.method, path: req.path }, "unhandled error");
    sendErrorResponse(res, err);
  };
}
