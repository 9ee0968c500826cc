// Service identity on internal gRPC calls. Each service holds its own Ed25519 private key and signs
// a short-lived token per call target (a JWT, alg EdDSA, RFC 8037); the callee verifies it with the
// caller's public key from its trust list, so it knows who calls instead of trusting a name the
// caller claims. A pod that holds no service's private key cannot pass for that service.
//
// Why signed tokens and not mTLS: the kubelet's gRPC probes cannot speak TLS, so mTLS would need a
// second, plaintext health port or an exec probe on every service; grpc-js reads certificates once
// (no rotation without a restart); `npm start` would need a CA and certificates at every start.
// A token needs one private key per service and one list of public keys, works the same on
// loopback and in a cluster, and leaves the health service open for probes.
//
// Why node:crypto and not a JWT library: the token has one fixed header (EdDSA, JWT) that is
// compared byte for byte, so no algorithm is ever chosen from the token ("none", HMAC-with-a-public-
// key confusion cannot happen); the signature is OpenSSL's Ed25519 through node:crypto. `jose`, the
// usual library, is ESM-only from v6 on, and this monorepo compiles and tests as CommonJS.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import { z } from "zod";

/** Every identity a caller can have: the services, and `admin` (the keys CLI, operators). */
export const SERVICE_NAMES = ["gateway", "catalog", "router", "executor", "ledger", "admin"] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export const isServiceName = (name: string): name is ServiceName => (SERVICE_NAMES as readonly string[]).includes(name);

/** Metadata key of the token on every call (`authorization: Bearer <jwt>`). */
export const IDENTITY_METADATA = "authorization";

/** How long a token is valid, and how old one may get before a callee refuses it (s). */
export const TOKEN_LIFETIME_S = 120;
const MAX_TOKEN_LIFETIME_S = 300;
/** Clock difference between pods that a callee tolerates (s). */
const CLOCK_TOLERANCE_S = 10;

const b64url = (value: Buffer | string) => Buffer.from(value).toString("base64url");
/** The only header ever signed or accepted. */
const HEADER = b64url(JSON.stringify({ alg: "EdDSA", typ: "JWT" }));

/** Reads a private key: base64 of its PKCS#8 DER (one line, fits an env var or a Secret). */
export function parsePrivateKey(encoded: string): KeyObject {
  const key = createPrivateKey({ key: Buffer.from(encoded.trim(), "base64"), format: "der", type: "pkcs8" });
  if (key.asymmetricKeyType !== "ed25519") throw new Error("not an Ed25519 key");
  return key;
}

/** Reads a public key: base64 of its SPKI DER. */
export function parsePublicKey(encoded: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(encoded.trim(), "base64"), format: "der", type: "spki" });
  if (key.asymmetricKeyType !== "ed25519") throw new Error("not an Ed25519 key");
  return key;
}

/** A new key pair, both halves in the encoding the configuration reads. */
export function generateIdentityKeys(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    privateKey: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
    publicKey: publicKey.export({ format: "der", type: "spki" }).toString("base64"),
  };
}

/** Public keys of the callers a service accepts, by identity. */
export type TrustedKeys = ReadonlyMap<ServiceName, KeyObject>;

/** Formats a trust list as TRUSTED_SERVICE_KEYS reads it: `gateway=<base64>,router=<base64>`. */
export function formatTrustedKeys(publicKeys: Partial<Record<ServiceName, string>>): string {
  return Object.entries(publicKeys)
    .map(([name, key]) => `${name}=${key}`)
    .join(",");
}

/** `SERVICE_IDENTITY_KEY`: this service's private key (base64 PKCS#8 DER, from a Secret). */
export const serviceIdentityKeySchema = z
  .string({ error: "required: this service's Ed25519 private key, base64 PKCS#8 DER (npm start generates one)" })
  .transform((raw, ctx) => {
    try {
      return parsePrivateKey(raw);
    } catch {
      // Never echo the value: it is a secret.
      ctx.addIssue({ code: "custom", message: "must be an Ed25519 private key, base64 of its PKCS#8 DER" });
      return z.NEVER;
    }
  });

/** `TRUSTED_SERVICE_KEYS`: `name=<base64 SPKI DER>,...`, the callers this service accepts. */
export const trustedServiceKeysSchema = z
  .string({ error: "required: the public keys of the callers, e.g. gateway=MCow...,executor=MCow... (npm start generates them)" })
  .transform((raw, ctx): TrustedKeys => {
    const keys = new Map<ServiceName, KeyObject>();
    raw
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .forEach((pair, i) => {
        const at = pair.indexOf("=");
        const name = pair.slice(0, Math.max(at, 0)).trim();
        if (at < 0 || !isServiceName(name)) {
          ctx.addIssue({
            code: "custom",
            message: `entry ${i + 1} must be name=<public key> with a name from ${SERVICE_NAMES.join(", ")}`,
          });
          return;
        }
        if (keys.has(name)) ctx.addIssue({ code: "custom", message: `${name} is listed twice` });
        try {
          keys.set(name, parsePublicKey(pair.slice(at + 1)));
        } catch {
          ctx.addIssue({ code: "custom", message: `${name}: must be an Ed25519 public key, base64 of its SPKI DER` });
        }
      });
    if (keys.size === 0) ctx.addIssue({ code: "custom", message: "lists no caller: every call would be refused" });
    return keys;
  });

/** What a gRPC client attaches to each call: a token for the method's service. */
export interface CallIdentity {
  /** A bearer token for a call of `method` (full path, "/agentic.ledger.v1.LedgerService/HoldCredits"). */
  tokenFor(method: string): string;
}

/** "/agentic.ledger.v1.LedgerService/HoldCredits" → "agentic.ledger.v1.LedgerService", a token's audience. */
export function audienceOf(method: string): string {
  return method.split("/")[1] ?? "";
}

/**
 * The identity of service `name`: it signs one token per called service and reuses it for half its
 * lifetime, so a call costs a signature at most once a minute per target.
 */
export function serviceIdentity(
  name: ServiceName,
  privateKey: KeyObject | string,
  clock: () => number = Date.now,
): CallIdentity & { name: ServiceName } {
  const key = typeof privateKey === "string" ? parsePrivateKey(privateKey) : privateKey;
  const cache = new Map<string, { token: string; renewAt: number }>();
  return {
    name,
    tokenFor(method) {
      const audience = audienceOf(method);
      const now = clock();
      const cached = cache.get(audience);
      if (cached && now < cached.renewAt) return cached.token;
      const iat = Math.floor(now / 1000);
      const payload = b64url(JSON.stringify({ iss: name, aud: audience, iat, exp: iat + TOKEN_LIFETIME_S }));
      const signature = sign(null, Buffer.from(`${HEADER}.${payload}`), key).toString("base64url");
      const token = `${HEADER}.${payload}.${signature}`;
      cache.set(audience, { token, renewAt: now + (TOKEN_LIFETIME_S * 1000) / 2 });
      return token;
    },
  };
}

/** Why a token was refused. */
export class IdentityError extends Error {
  constructor(
    readonly reason: "missing" | "malformed" | "unknown_caller" | "bad_signature" | "wrong_audience" | "expired",
    message: string,
  ) {
    super(message);
    this.name = "IdentityError";
  }
}

export interface TokenVerifier {
  /** The verified caller of a token presented to `audience`; throws IdentityError otherwise. */
  verify(token: string, audience: string): ServiceName;
}

/** Verifies tokens against `trusted`; remembers verified tokens until they expire (one signature check per token). */
export function createTokenVerifier(trusted: TrustedKeys, clock: () => number = Date.now): TokenVerifier {
  const verified = new Map<string, { caller: ServiceName; audience: string; exp: number }>();
  return {
    verify(token, audience) {
      const nowS = clock() / 1000;
      const known = verified.get(token);
      if (known) {
        if (known.audience !== audience)
          throw new IdentityError("wrong_audience", `the token of ${known.caller} is for ${known.audience}, not ${audience}`);
        if (nowS > known.exp + CLOCK_TOLERANCE_S) throw new IdentityError("expired", `the token of ${known.caller} expired`);
        return known.caller;
      }
      const parts = token.split(".");
      if (parts.length !== 3 || parts[0] !== HEADER) throw new IdentityError("malformed", "the service token is not an EdDSA JWT");
      let claims: { iss?: unknown; aud?: unknown; iat?: unknown; exp?: unknown };
      try {
        claims = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8"));
      } catch {
        throw new IdentityError("malformed", "the service token's claims are not JSON");
      }
      const { iss, aud, iat, exp } = claims;
      if (typeof iss !== "string" || typeof aud !== "string" || typeof iat !== "number" || typeof exp !== "number") {
        throw new IdentityError("malformed", "the service token lacks iss, aud, iat or exp");
      }
      const key = isServiceName(iss) ? trusted.get(iss) : undefined;
      if (!key) throw new IdentityError("unknown_caller", `no trusted key for caller ${JSON.stringify(iss.slice(0, 40))}`);
      if (!verify(null, Buffer.from(`${parts[0]}.${parts[1]}`), key, Buffer.from(parts[2]!, "base64url"))) {
        throw new IdentityError("bad_signature", `the token's signature is not ${iss}'s`);
      }
      const caller = iss as ServiceName;
      if (aud !== audience) throw new IdentityError("wrong_audience", `the token of ${caller} is for ${aud}, not ${audience}`);
      if (nowS > exp + CLOCK_TOLERANCE_S || iat > nowS + CLOCK_TOLERANCE_S || exp - iat > MAX_TOKEN_LIFETIME_S) {
        throw new IdentityError("expired", `the token of ${caller} is expired, from the future, or lives too long`);
      }
      // Bounded: at most a few live tokens per caller and target; a flood of valid tokens just resets it.
      if (verified.size >= 1_000) verified.clear();
      verified.set(token, { caller, audience, exp });
      return caller;
    },
  };
}
