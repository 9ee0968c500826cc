// One HTTP exchange with the API over fetch (Node 20+ and browsers alike): URL and headers, a total
// deadline across every try, retries by the retry policy, and answers turned into data or typed
// errors. Nothing here knows an endpoint; the client's namespaces do.
import { AgenticApiError, NetworkError, TimeoutError, errorFromResponse } from "./errors";
import { DEFAULT_RETRY, backoffMs, isRetryable, type RetryOptions } from "./retry";

export type QueryValue = string | number | boolean | undefined;

export interface RequestSpec {
  method: "GET" | "POST";
  /** Path under the base URL, starting with "/". */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON body (POST). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Send the API key (default true; catalog reads need none). */
  auth?: boolean;
  /** Total deadline of the call, every try and backoff included (default: the client's timeoutMs). */
  timeoutMs?: number;
  /** Retry options for this call; false tries once. */
  retry?: RetryOptions | false;
  signal?: AbortSignal;
}

/** An answer as it came: status, headers and the parsed body (JSON, else text). */
export interface RawResponse<T = unknown> {
  status: number;
  headers: Headers;
  data: T;
  /** Tries it took (1 when the first answered). */
  attempts: number;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  retry: Required<RetryOptions>;
  fetch: typeof fetch;
  headers: Record<string, string>;
}

export class Transport {
  constructor(private readonly opts: TransportOptions) {}

  /** The call's answer when it is a 2xx; otherwise throws the error it means (after any retries). */
  async request<T>(spec: RequestSpec): Promise<RawResponse<T>> {
    return this.send<T>(spec, true);
  }

  /**
   * The raw escape hatch: any 2xx to 5xx answer is returned as it came, without throwing; only a
   * call that got no answer throws (NetworkError, TimeoutError). No retries unless spec.retry asks.
   */
  async raw<T = unknown>(spec: RequestSpec): Promise<RawResponse<T>> {
    return this.send<T>({ retry: false, ...spec }, false);
  }

  private async send<T>(spec: RequestSpec, throwOnStatus: boolean): Promise<RawResponse<T>> {
    const retry = spec.retry === false ? { ...DEFAULT_RETRY, maxAttempts: 1 } : { ...this.opts.retry, ...spec.retry };
    const deadline = Date.now() + (spec.timeoutMs ?? this.opts.timeoutMs);
    for (let attempt = 1; ; attempt++) {
      let failure: unknown;
      try {
        const answer = await this.once<T>(spec, deadline);
        if (!throwOnStatus || (answer.status >= 200 && answer.status < 300)) return { ...answer, attempts: attempt };
        failure = errorFromResponse(answer.status, answer.data, answer.headers);
      } catch (err) {
        failure = err;
      }
      const wait = backoffMs(attempt, retry, failure);
      if (attempt >= retry.maxAttempts || !isRetryable(failure) || Date.now() + wait >= deadline) throw failure;
      await sleep(wait, spec.signal);
    }
  }

  /** One try, bounded by what is left of the deadline. Throws only when no answer arrived. */
  private async once<T>(spec: RequestSpec, deadline: number): Promise<Omit<RawResponse<T>, "attempts">> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), Math.max(0, deadline - Date.now()));
    const onAbort = () => timeout.abort();
    spec.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await this.opts.fetch(this.url(spec), {
        method: spec.method,
        headers: this.headers(spec),
        ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
        signal: timeout.signal,
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, data: parseBody(text, response.headers) as T };
    } catch (err) {
      if (spec.signal?.aborted) throw spec.signal.reason ?? err;
      if (timeout.signal.aborted) {
        throw new TimeoutError(`no answer from ${spec.method} ${spec.path} within the call's deadline`, {
          code: "CLIENT_TIMEOUT",
          cause: err,
        });
      }
      if (err instanceof AgenticApiError) throw err;
      throw new NetworkError(`${spec.method} ${spec.path} got no answer: ${describe(err)}`, { code: "NETWORK_ERROR", cause: err });
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onAbort);
    }
  }

  private url(spec: RequestSpec): string {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.query ?? {})) if (value !== undefined) query.set(name, String(value));
    const search = query.toString();
    return `${this.opts.baseUrl}${spec.path}${search ? `?${search}` : ""}`;
  }

  private headers(spec: RequestSpec): Record<string, string> {
    return {
      accept: "application/json",
      ...this.opts.headers,
      ...(spec.body !== undefined ? { "content-type": "application/json" } : {}),
      ...(spec.auth !== false && this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
      ...spec.headers,
    };
  }
}

function parseBody(text: string, headers: Headers): unknown {
  if (text === "") return undefined;
  if (!/json/i.test(headers.get("content-type") ?? "")) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The innermost reason of a fetch failure ("fetch failed" alone says little). */
function describe(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e instanceof Error && parts.length < 4; e = e.cause) parts.push(e.message);
  return parts.length > 0 ? parts.join(": ") : String(err);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
