// The first middleware of every request that reaches express, in one layer (each express layer
// costs a dispatch per request): start observing it, set the headers every answer carries, and
// refuse at once what is malformed whatever its path (no Host on HTTP/1.1; a declared body over
// the limit), closing the connection after the refusal.
import type { RequestHandler } from "express";
import { sendErrorResponse } from "../errors";
import { declaredOversize } from "./declared-size";
import { observe, type RequestRecorder } from "./observe";
import { missingHost } from "./require-host";
import { setResponseHeaders } from "./response-headers";

export function edge(recorder: RequestRecorder, bodyLimit: string): RequestHandler {
  const oversize = declaredOversize(bodyLimit);
  return (req, res, next) => {
    observe(recorder, req, res);
    setResponseHeaders(req, res);
    const refusal = missingHost(req) ?? oversize(req);
    if (refusal) {
      res.setHeader("Connection", "close");
      sendErrorResponse(res, refusal);
      return;
    }
    next();
  };
}
