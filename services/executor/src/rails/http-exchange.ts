// One HTTP exchange with a vendor: serializes the body once (a paid retry must resend the same
// bytes), never follows redirects, maps transport failures to RailError, parses the answer.
// Sent with undici's `request`, the HTTP client under Node's own `fetch`, without fetch's WHATWG
// layer (Request, Headers, web streams): that layer was about half of what an exchange cost the
// executor's CPU (docs/performance.md, "The execute path, a last pass").
import type { IncomingHttpHeaders } from "node:http";
import { request, type Dispatcher } from "undici";
import { RailError, type BinaryBody, type ProviderHttpRequest, type RailResponse } from "../domain/rail-port";

/** Largest vendor answer read when the caller sets no limit: an answer must fit one gRPC message to the gateway. */
const DEFAULT_MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** A request ready to send (and to resend identically with payment headers added). */
export interface PreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export function prepareRequest(req: ProviderHttpRequest): PreparedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) headers[name.toLowerCase()] = value;
  if (req.body === undefined) return { method: req.method, url: req.url, headers };
  if (typeof req.body === "string") {
    // What fetch declared for a string body sent without a type.
    headers["content-type"] ??= "text/plain;charset=UTF-8";
    return { method: req.method, url: req.url, headers, body: req.body };
  }
  headers["content-type"] ??= "application/json";
  return { method: req.method, url: req.url, headers, body: JSON.stringify(req.body) };
}

/**
 * Sends `prepared` plus `extraHeaders`. Redirects are not followed: a payment proof or API key must
 * never be replayed to a URL the route did not name, so a 3xx comes back as a response. The answer is
 * read up to `maxBytes`: a larger one fails the exchange (RailError `invalid_response`, with the
 * answer's status and headers) before anything is parsed, so the attempt fails before any capture.
 */
export async function exchange(
  prepared: PreparedRequest,
  signal: AbortSignal,
  extraHeaders: Record<string, string> = {},
  maxBytes = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<Omit<RailResponse, "payment">> {
  try {
    const res = await request(prepared.url, {
      method: prepared.method as Dispatcher.HttpMethod,
      headers: { ...DEFAULT_HEADERS, ...prepared.headers, ...extraHeaders },
      ...(prepared.body !== undefined ? { body: prepared.body } : {}),
      signal,
    });
    const headers = flatHeaders(res.headers);
    const bytes = await readCapped(res.body, headers, maxBytes, () => tooLarge(prepared.url, maxBytes, res.statusCode, headers));
    return { status: res.statusCode, headers, body: parseBody(bytes, headers["content-type"]) };
  } catch (err) {
    throw toRailError(err, signal, prepared.url);
  }
}

/** What `fetch` sent unless told otherwise: some vendors refuse a request without a User-Agent or an Accept. */
const DEFAULT_HEADERS: Record<string, string> = { accept: "*/*", "user-agent": "agentic-api-executor" };

/** The answer's headers, one string each (repeated ones joined by ", ", as `fetch`'s Headers join them). */
function flatHeaders(raw: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

function tooLarge(url: string, maxBytes: number, status: number, headers: Record<string, string>): RailError {
  return new RailError(
    "invalid_response",
    "response_too_large",
    `the answer of ${safeHost(url)} is larger than ${maxBytes} bytes`,
    { limitBytes: maxBytes },
    { response: { status, headers } },
  );
}

/** The body's bytes, refused (without reading on) once they pass `maxBytes`. */
async function readCapped(
  body: Dispatcher.ResponseData["body"],
  headers: Record<string, string>,
  maxBytes: number,
  refuse: () => RailError,
): Promise<Buffer> {
  const declared = Number(headers["content-length"] ?? Number.NaN);
  if (declared > maxBytes) {
    abandon(body);
    throw refuse();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      abandon(body);
      throw refuse();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Stops reading an answer (closing its connection); the abort it reports is expected, not an error. */
function abandon(body: Dispatcher.ResponseData["body"]): void {
  body.on("error", () => undefined);
  body.destroy();
}

/** Media types whose bytes are the answer (speech audio, images): never decoded as text. */
const BINARY_TYPE = /^\s*(audio|image|video)\/|^\s*application\/octet-stream\b/i;

function parseBody(bytes: Buffer, contentType: string | undefined): unknown {
  if (bytes.length === 0) return undefined;
  if (contentType && BINARY_TYPE.test(contentType)) {
    const binary: BinaryBody = { kind: "binary", contentType: contentType.split(";")[0]!.trim(), base64: bytes.toString("base64") };
    return binary;
  }
  const text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  if (contentType && /[/+]json\b/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      // A vendor that labels broken JSON as JSON: keep the text for the adapter to judge.
      return text;
    }
  }
  return text;
}

function toRailError(err: unknown, signal: AbortSignal, url: string): RailError {
  if (err instanceof RailError) return err;
  const host = safeHost(url);
  if (signal.aborted) return new RailError("timeout", "deadline_exceeded", `no answer from ${host} before the deadline`);
  const { code, cause } = err as { code?: string; cause?: { code?: string } };
  return new RailError("network", "connection_failed", `could not reach ${host}`, { code: code ?? cause?.code ?? (err as Error).name });
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the provider";
  }
}
