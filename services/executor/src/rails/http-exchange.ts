// One HTTP exchange with a vendor: serializes the body once (a paid retry must resend the same
// bytes), never follows redirects, maps transport failures to RailError, parses the answer.
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
  if (typeof req.body === "string") return { method: req.method, url: req.url, headers, body: req.body };
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
    const res = await fetch(prepared.url, {
      method: prepared.method,
      headers: { ...prepared.headers, ...extraHeaders },
      ...(prepared.body !== undefined ? { body: prepared.body } : {}),
      redirect: "manual",
      signal,
    });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const bytes = await readCapped(res, maxBytes, () => tooLarge(prepared.url, maxBytes, res.status, headers));
    return { status: res.status, headers, body: parseBody(bytes, headers["content-type"]) };
  } catch (err) {
    throw toRailError(err, signal, prepared.url);
  }
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
async function readCapped(res: Response, maxBytes: number, refuse: () => RailError): Promise<Buffer> {
  const declared = Number(res.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw refuse();
  }
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw refuse();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
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
  const cause = (err as { cause?: { code?: string } }).cause;
  return new RailError("network", "connection_failed", `could not reach ${host}`, { code: cause?.code ?? (err as Error).name });
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the provider";
  }
}
