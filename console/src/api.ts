// The console's only way to the public REST API: the signed-in key as bearer, errors as ApiError with
// the API's hint, a 401 back to sign-in, a 429 waited out for Retry-After seconds and sent once more.
const KEY_ITEM = "agentic.console.apiKey";

/** The API base path: the console is served at <base>/console/, so the API is the part before it. */
export const API_BASE = location.pathname.replace(/\/console(\/.*)?$/, "");

/** The API key of this tab (sessionStorage: gone with the tab, never in a URL or a cookie). */
export const session = {
  key: (): string | null => sessionStorage.getItem(KEY_ITEM),
  signIn: (key: string) => sessionStorage.setItem(KEY_ITEM, key),
  signOut: () => sessionStorage.removeItem(KEY_ITEM),
};

/** An ErrorResponse of the API (or a network failure), with what the API said to do about it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/** Called on a 401: the key is dropped and the app shows sign-in. */
let onUnauthorized: () => void = () => undefined;
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

/** Called while a 429 is waited out, with the seconds left (0 when done). */
let onThrottled: (seconds: number) => void = () => undefined;
export function whenThrottled(handler: (seconds: number) => void): void {
  onThrottled = handler;
}

export interface ApiAnswer<T> {
  body: T;
  headers: Headers;
}

/** Seconds a 429 asks to wait: Retry-After in seconds (or a date), 1 when absent, at most 60. */
function retryAfterSeconds(headers: Headers): number {
  const raw = headers.get("retry-after");
  if (!raw) return 1;
  const seconds = /^\d+$/.test(raw) ? Number(raw) : Math.ceil((Date.parse(raw) - Date.now()) / 1000);
  return Math.min(60, Math.max(1, Number.isFinite(seconds) ? seconds : 1));
}

async function errorOf(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => ({}))) as { error?: string; code?: string; hint?: string };
  return new ApiError(res.status, body.code ?? `HTTP_${res.status}`, body.error ?? res.statusText, body.hint ?? "");
}

/** One request to the API; JSON in and out. Throws ApiError for any answer but 2xx. */
export async function api<T>(path: string, init: RequestInit = {}): Promise<ApiAnswer<T>> {
  const res = await send(path, init);
  return { body: (await res.json()) as T, headers: res.headers };
}

/** How often one request is sent again after a 429 before its error is shown. */
const MAX_THROTTLED_RETRIES = 3;

/** One request to the API, the raw answer (for streams such as the CSV export). */
export async function send(path: string, init: RequestInit = {}, retries = 0): Promise<Response> {
  const key = session.key();
  const headers = new Headers(init.headers);
  if (key) headers.set("authorization", `Bearer ${key}`);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  let res: Response;
  try {
    res = await fetch(API_BASE + path, { ...init, headers });
  } catch {
    throw new ApiError(0, "NETWORK", "The API did not answer.", "Check the gateway is running, then try again.");
  }
  if (res.status === 401) {
    session.signOut();
    onUnauthorized();
    throw await errorOf(res);
  }
  if (res.status === 429 && retries < MAX_THROTTLED_RETRIES) {
    for (let left = retryAfterSeconds(res.headers); left > 0; left--) {
      onThrottled(left);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    onThrottled(0);
    return send(path, init, retries + 1);
  }
  if (!res.ok) throw await errorOf(res);
  return res;
}
