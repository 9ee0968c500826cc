// HTTP/1.1 requires a Host header (RFC 9112 §3.2); a request without one is a 400 ErrorResponse.
// Node's own check answers with an empty body, so the server leaves the check to this middleware.
import type { RequestHandler } from "express";
import { HttpError, sendErrorResponse } from "../errors";

export const requireHost: RequestHandler = (req, res, next) => {
  if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && !req.headers.host) {
    res.setHeader("Connection", "close");
    sendErrorResponse(
      res,
      new HttpError(
        400,
        "INVALID_REQUEST",
        "An HTTP/1.1 request must carry a Host header.",
        "Send the Host header (every HTTP client does by default).",
      ),
    );
    return;
  }
  next();
};
