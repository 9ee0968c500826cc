// HTTP/1.1 requires a Host header (RFC 9112 §3.2); a request without one is a 400 ErrorResponse.
// Node's own check answers with an empty body, so the server leaves the check to the gateway.
import type { IncomingMessage } from "node:http";
import { HttpError } from "../errors";

/** The refusal of an HTTP/1.1 request without Host, or undefined when it has one (or is HTTP/1.0). */
export function missingHost(req: IncomingMessage): HttpError | undefined {
  if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && !req.headers.host) {
    return new HttpError(
      400,
      "INVALID_REQUEST",
      "An HTTP/1.1 request must carry a Host header.",
      "Send the Host header (every HTTP client does by default).",
    );
  }
  return undefined;
}
