// OAuth2 client-credentials tokens (RFC 6749 §4.4) for vendors that want one before each call (Amadeus):
// POST the token URL form-encoded (grant_type=client_credentials, client_id, client_secret) → {access_token,
// expires_in, token_type: "Bearer"}. A token is kept per (token URL, credentials) until shortly before it
// expires; concurrent calls share one token request. The token request is a read: it makes the vendor do
// nothing billable, so a failure there is an ordinary provider failure (another route may take the call).
import { createHash } from "node:crypto";
import type { VendorCalls } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** A token is renewed this long before the vendor says it expires, so it never expires mid-flow. */
const REFRESH_MARGIN_MS = 60_000;

interface Held {
  token: string;
  expiresAt: number;
}

export class ClientCredentialsTokens {
  private readonly tokens = new Map<string, Held>();
  private readonly pending = new Map<string, Promise<string>>();

  constructor(
    private readonly providerKey: string,
    /** The clock, in ms (tests move it to see a token renewed). */
    private readonly now: () => number = Date.now,
  ) {}

  /** A bearer token valid for at least the refresh margin: the kept one, or a new one fetched through `vendor`. */
  async token(tokenUrl: string, credentials: ClientCredentials, vendor: VendorCalls): Promise<string> {
    const key = keyOf(tokenUrl, credentials);
    const held = this.tokens.get(key);
    if (held && held.expiresAt - REFRESH_MARGIN_MS > this.now()) return held.token;
    const inflight = this.pending.get(key);
    if (inflight) {
      try {
        return await inflight;
      } catch {
        // That request ran on another execution's deadline and failed: ask once on this one's.
      }
    }
    return this.fetch(key, tokenUrl, credentials, vendor);
  }

  /** Forgets `token` (the vendor refused it before its time), so the next call fetches a new one. */
  invalidate(tokenUrl: string, credentials: ClientCredentials, token: string): void {
    const key = keyOf(tokenUrl, credentials);
    if (this.tokens.get(key)?.token === token) this.tokens.delete(key);
  }

  private fetch(key: string, tokenUrl: string, credentials: ClientCredentials, vendor: VendorCalls): Promise<string> {
    const request = (async () => {
      const res = await vendor.send({
        method: "POST",
        url: tokenUrl,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: credentials.clientId,
          client_secret: credentials.clientSecret,
        }).toString(),
      });
      // Any refusal here is about our account, never the caller's input.
      if (res.status !== 200)
        throw vendorError(this.providerKey, res, {
          code: stringField(res.body, "error"),
          message: stringField(res.body, "error_description"),
          blame: "provider",
        });
      const token = stringField(res.body, "access_token");
      const expiresIn = isRecord(res.body) ? res.body.expires_in : undefined;
      if (!token || typeof expiresIn !== "number" || !(expiresIn > 0))
        throw invalidResponse(this.providerKey, res, "without a bearer token");
      this.tokens.set(key, { token, expiresAt: this.now() + expiresIn * 1000 });
      return token;
    })();
    this.pending.set(key, request);
    const done = () => {
      if (this.pending.get(key) === request) this.pending.delete(key);
    };
    request.then(done, done);
    return request;
  }
}

/** A key that names the credentials without keeping the secret as a map key. */
function keyOf(tokenUrl: string, c: ClientCredentials): string {
  return createHash("sha256").update(`${tokenUrl}\n${c.clientId}\n${c.clientSecret}`).digest("hex");
}
