// Wire format of the MPP "Payment" HTTP authentication scheme, server side: challenge ids bound by
// HMAC to their parameters, the WWW-Authenticate value, credentials and receipts (base64url JSON).
import { createHmac, timingSafeEqual } from "node:crypto";
import { Json } from "ox";

/** Challenge auth-params; `request` and `opaque` are base64url of JCS JSON. */
export interface ChallengeParams {
  id: string;
  realm: string;
  method: string;
  intent: string;
  request: string;
  expires?: string;
  digest?: string;
  description?: string;
  opaque?: string;
  header?: string;
}

/** A decoded credential (`Authorization: Payment <base64url JSON>`). */
export interface Credential {
  challenge: ChallengeParams;
  payload: Record<string, unknown>;
  source?: string;
}

/** base64url without padding of RFC 8785 (JCS) canonical JSON. */
export function encodeJcs(value: unknown): string {
  return Buffer.from(Json.canonicalize(value), "utf8").toString("base64url");
}

/** Parses base64url JSON; undefined when it is not. */
export function decodeBase64UrlJson(value: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) return undefined;
  try {
    return JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
}

/**
 * The stateless challenge id: base64url(HMAC-SHA256(secret, realm|method|intent|request|expires|digest|opaque)),
 * absent optional slots as empty strings (the 7-slot form of mppx `Challenge.computeId`).
 */
export function computeChallengeId(secret: Buffer, p: Omit<ChallengeParams, "id">): string {
  const input = [p.realm, p.method, p.intent, p.request, p.expires ?? "", p.digest ?? "", p.opaque ?? ""].join("|");
  return createHmac("sha256", secret).update(input).digest("base64url");
}

/** True when `p.id` is the id this secret gives its other parameters (constant-time compare). */
export function isBoundChallenge(secret: Buffer, p: ChallengeParams): boolean {
  const expected = Buffer.from(computeChallengeId(secret, p));
  const given = Buffer.from(p.id);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The `WWW-Authenticate` value of one challenge: `Payment id="...", realm="...", ...`. */
export function formatChallenge(p: ChallengeParams): string {
  const params: Array<[string, string | undefined]> = [
    ["id", p.id],
    ["realm", p.realm],
    ["method", p.method],
    ["intent", p.intent],
    ["request", p.request],
    ["expires", p.expires],
    ["digest", p.digest],
    ["description", p.description],
    ["opaque", p.opaque],
    ["header", p.header],
  ];
  return `Payment ${params
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}="${(v as string).replace(/["\\]/g, "\\$&")}"`)
    .join(", ")}`;
}

/** The credential in an `Authorization` (or `Payment-Authorization`) value, or a reason it is malformed. */
export function parseCredential(headerValue: string): Credential | { malformed: string } {
  const match = /^Payment\s+(\S+)\s*$/i.exec(headerValue.trim());
  if (!match) return { malformed: "not a Payment credential" };
  const decoded = decodeBase64UrlJson(match[1] as string);
  if (typeof decoded !== "object" || decoded === null) return { malformed: "credential is not base64url JSON" };
  const c = decoded as Record<string, unknown>;
  const ch = c.challenge as Record<string, unknown> | undefined;
  if (typeof ch !== "object" || ch === null || typeof c.payload !== "object" || c.payload === null)
    return { malformed: "credential needs challenge and payload objects" };
  for (const key of ["id", "realm", "method", "intent", "request"])
    if (typeof ch[key] !== "string") return { malformed: `challenge.${key} must be a string` };
  for (const key of ["expires", "digest", "description", "opaque", "header"])
    if (ch[key] !== undefined && typeof ch[key] !== "string") return { malformed: `challenge.${key} must be a string` };
  return {
    challenge: ch as unknown as ChallengeParams,
    payload: c.payload as Record<string, unknown>,
    ...(typeof c.source === "string" ? { source: c.source } : {}),
  };
}

/** RFC 3339 timestamp without fractional seconds. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
