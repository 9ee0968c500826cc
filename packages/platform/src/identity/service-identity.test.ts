// Tokens: who signed, for whom, for how long; and the configuration that carries the keys.
import {
  createTokenVerifier,
  formatTrustedKeys,
  generateIdentityKeys,
  serviceIdentityKeySchema,
  serviceIdentity,
  trustedServiceKeysSchema,
} from "./service-identity";

const LEDGER = "/agentic.ledger.v1.LedgerService/GrantCredits";
const gatewayKeys = generateIdentityKeys();
const trusted = trustedServiceKeysSchema.parse(formatTrustedKeys({ gateway: gatewayKeys.publicKey }));

describe("service tokens", () => {
  it("carry the signer's name, verified with its public key", () => {
    const token = serviceIdentity("gateway", gatewayKeys.privateKey).tokenFor(LEDGER);
    expect(createTokenVerifier(trusted).verify(token, "agentic.ledger.v1.LedgerService")).toBe("gateway");
  });

  it("are reused for half their lifetime, then renewed", () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const id = serviceIdentity("gateway", gatewayKeys.privateKey, () => now);
    const first = id.tokenFor(LEDGER);
    now += 59_000;
    expect(id.tokenFor(LEDGER)).toBe(first);
    now += 2_000;
    expect(id.tokenFor(LEDGER)).not.toBe(first);
  });

  it("stop working after they expire", () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const token = serviceIdentity("gateway", gatewayKeys.privateKey, () => now).tokenFor(LEDGER);
    const verifier = createTokenVerifier(trusted, () => now);
    expect(verifier.verify(token, "agentic.ledger.v1.LedgerService")).toBe("gateway");
    now += 131_000; // 120 s lifetime + 10 s tolerance
    expect(() => verifier.verify(token, "agentic.ledger.v1.LedgerService")).toThrow(expect.objectContaining({ reason: "expired" }));
  });

  it("cannot be altered: a changed claim breaks the signature", () => {
    const token = serviceIdentity("gateway", gatewayKeys.privateKey).tokenFor(LEDGER);
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 3600 })).toString("base64url")}.${signature}`;
    expect(() => createTokenVerifier(trusted).verify(forged, "agentic.ledger.v1.LedgerService")).toThrow(
      expect.objectContaining({ reason: "bad_signature" }),
    );
  });

  it("refuse any other header (no algorithm is taken from the token)", () => {
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${Buffer.from(JSON.stringify({ iss: "gateway", aud: "x", iat: 0, exp: 1 })).toString("base64url")}.`;
    expect(() => createTokenVerifier(trusted).verify(none, "x")).toThrow(expect.objectContaining({ reason: "malformed" }));
  });
});

describe("identity configuration", () => {
  it("reads a private key and refuses anything else without echoing it", () => {
    expect(serviceIdentityKeySchema.safeParse(gatewayKeys.privateKey).success).toBe(true);
    const bad = serviceIdentityKeySchema.safeParse("c2VjcmV0LXZhbHVl");
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).not.toContain("c2VjcmV0LXZhbHVl");
  });

  it("reads a trust list of known names and refuses unknown names, bad keys and an empty list", () => {
    expect([...trusted.keys()]).toEqual(["gateway"]);
    expect(trustedServiceKeysSchema.safeParse(`mallory=${gatewayKeys.publicKey}`).success).toBe(false);
    expect(trustedServiceKeysSchema.safeParse("gateway=bm90LWEta2V5").success).toBe(false);
    expect(trustedServiceKeysSchema.safeParse("").success).toBe(false);
    // A private key where a public one belongs is refused too.
    expect(trustedServiceKeysSchema.safeParse(`gateway=${gatewayKeys.privateKey}`).success).toBe(false);
  });
});
