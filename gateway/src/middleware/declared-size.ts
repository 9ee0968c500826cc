// Refuses a request whose declared Content-Length is over the body limit from its header, before a
// byte of the body is read and whatever path it names: 413, and the connection is closed (the rest
// of the body is never waited for). Bodies without a declared length are bounded by express.json.
import bytes from "bytes";
import type { RequestHandler } from "express";
import { HttpError, sendErrorResponse } from "../errors";

export function refuseDeclaredOversize(limit: string): RequestHandler {
  const max = bytes.parse(limit) ?? 0;
  return (req, res, next) => {
    const declared = req.headers["content-length"];
    if (declared === undefined || !(Number(declared) > max)) return next();
    res.setHeader("Connection", "close");
    sendErrorResponse(
      res,
      new HttpError(413, "PAYLOAD_TOO_LARGE", `The body declares ${declared} bytes; at most ${limit} is accepted.`, "Send a smaller body."),
    );
  };
}
