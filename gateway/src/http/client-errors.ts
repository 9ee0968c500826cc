// What the gateway answers when Node's HTTP parser rejects a request before express sees it
// (oversized headers or URL, a garbage request line, an unknown method, a missing Host, a control
// character in a header, a client too slow to send its request): the same JSON ErrorResponse as
// every other rejection, then the connection is closed. Node's own answer would be an empty body.
import { STATUS_CODES, type Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "@agentic/platform";
import { HttpError, toErrorResponse } from "../errors";

interface ParserRejection {
  status: number;
  code: string;
  error: string;
  hint: string;
}

/** Node's parser and timeout error codes, as the client should read them. */
export function parserRejection(errCode: string | undefined): ParserRejection {
  switch (errCode) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        code: "HEADERS_TOO_LARGE",
        error: "The request line or headers are too large.",
        hint: "Send a shorter URL and fewer or smaller headers (16 KB in all at most).",
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return {
        status: 408,
        code: "REQUEST_TIMEOUT",
        error: "The request was not received in time.",
        hint: "Send the whole request promptly; slow uploads are cut off.",
      };
    case "HPE_INVALID_METHOD":
      return {
        status: 400,
        code: "INVALID_REQUEST",
        error: "The request method is not HTTP.",
        hint: "Use GET or POST as the API documents (see /openapi.json).",
      };
    default:
      return {
        status: 400,
        code: "INVALID_REQUEST",
        error: "The request is not valid HTTP/1.1.",
        hint: "Send a well-formed request with a Host header and no control characters in its headers.",
      };
  }
}

/** Makes `server` answer parser rejections with an ErrorResponse and close the connection. */
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A client that went away cannot be answered.
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const r = parserRejection(err.code);
    logger.info({ errCode: err.code, status: r.status }, "request refused by the HTTP parser");
    const { status, body } = toErrorResponse(new HttpError(r.status, r.code, r.error, r.hint));
    const text = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
        `Cache-Control: no-store\r\nConnection: close\r\n\r\n${text}`,
    );
  });
}
