// The shape of a vendor stand-in: its routes as plain request → reply functions, its error format,
// its own authentication, and whether a payment gate (x402 or MPP) fronts it instead of an API key.

/** A request as a vendor stand-in sees it (headers lowercased, JSON body already parsed). */
export interface VendorRequest {
  method: string;
  /** Path below the vendor's prefix, e.g. `/emails` for `POST /resend/emails`. */
  path: string;
  query: Readonly<Record<string, string>>;
  /** Values of the route's `:name` path segments. */
  params: Readonly<Record<string, string>>;
  headers: Readonly<Record<string, string>>;
  body: unknown;
}

/** A vendor's answer. A Buffer is sent as bytes (media: audio, images), another object as JSON, a string as text, undefined as an empty body. */
export interface VendorReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string | string[]>;
  /** Overrides the content type chosen from the body. */
  contentType?: string;
}

/** Facilities a vendor stand-in may use. */
export interface VendorContext {
  /** The vendor's notion of "now" (frozen by the control API for time-dependent answers). */
  now(): Date;
}

export interface VendorRoute {
  method: "GET" | "POST";
  /** Matched case-insensitively, without a trailing slash; `:name` segments match one segment each. */
  path: string;
  /** Price of this route on the paid mounts, when it differs from the vendor's. */
  priceAtomic?: string;
  handle(req: VendorRequest, ctx: VendorContext): VendorReply | Promise<VendorReply>;
}

/** What a call costs when paid over x402 or MPP, in atomic units of the sandbox USDC (6 decimals). */
export interface VendorPrice {
  amountAtomic: string;
  description: string;
}

/** How a mount of a vendor is paid: our API key (direct), or per call over x402 or MPP. */
export type VendorMode = "direct" | "x402" | "mpp";

export interface VendorDefinition {
  /** Path prefix and provider key, e.g. `resend`. */
  key: string;
  routes: VendorRoute[];
  /** The vendor's documented error body for a status and message (used for faults and bad JSON too). */
  errorReply(status: number, message: string): VendorReply;
  /** The vendor's own API-key check on its direct mount; returns an error reply when it fails. Absent: a free API. */
  authenticate?(req: VendorRequest): VendorReply | undefined;
  /** Price per call on the x402 and MPP mounts, where the payment gate replaces `authenticate`. */
  price: VendorPrice;
}

/** What every vendor factory takes: the key its direct mount accepts and its per-call price when paid. */
export interface VendorOptions {
  apiKey: string;
  priceAtomic: string;
}

/**
 * A stand-in as the sandbox registers it: its key (path prefix and provider key), the API key its
 * direct mount accepts (absent: a free API), its per-call price on the paid mounts, and its factory.
 * Each vendor file exports one; vendors/all-vendors.ts lists them.
 */
export interface SandboxVendor {
  readonly key: string;
  readonly apiKey?: string;
  /** Atomic units of the sandbox USDC (6 decimals: 1000 = $0.001 = 1 credit); at or below the catalog's route price, which caps what the executor pays. */
  readonly priceAtomic: string;
  create(opts: VendorOptions): VendorDefinition;
}

/** The `:name` segment values when `path` matches `pattern` (case-insensitively), else undefined. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.replace(/\/+$/, "").split("/");
  const got = path.replace(/\/+$/, "").split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of want.entries()) {
    const actual = got[i] as string;
    if (segment.startsWith(":")) params[segment.slice(1)] = decodeURIComponent(actual);
    else if (segment.toLowerCase() !== actual.toLowerCase()) return undefined;
  }
  return params;
}

/** Lowercased header lookup that returns one value. */
export function header(req: VendorRequest, name: string): string | undefined {
  return req.headers[name.toLowerCase()];
}

/** The token of an `Authorization: <scheme> <token>` header when the scheme matches (case-insensitive). */
export function authToken(req: VendorRequest, scheme: string): string | undefined {
  const value = header(req, "authorization");
  if (!value) return undefined;
  const [given, ...rest] = value.trim().split(/\s+/);
  if (given?.toLowerCase() !== scheme.toLowerCase() || rest.length !== 1) return undefined;
  return rest[0];
}

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A URL path segment made from free text (lowercase, dashes, at most 48 characters); `fallback` when nothing is left. */
export function slugOf(text: string, fallback = "query"): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 48) || fallback
  );
}
