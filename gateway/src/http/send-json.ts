// A 200 JSON answer with the bytes and headers express's res.json writes (Content-Type
// application/json; charset=utf-8, then Content-Length), without what res.json does per call to get
// there: five settings looked up (the gateway sets no json replacer, spaces or escape), the type run
// through mime-types and its charset parsed and written again, the freshness check of a GET.
import type { ServerResponse } from "node:http";

export function sendJson(res: ServerResponse, body: object): void {
  const text = JSON.stringify(body);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", String(Buffer.byteLength(text)));
  res.end(text);
}

/** The same answer for a body that is already JSON bytes (UTF-8), written as they are. */
export function sendJsonBytes(res: ServerResponse, body: Uint8Array): void {
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", String(body.byteLength));
  res.end(body);
}
