// MPP ("Payment" HTTP authentication scheme) wire format, client side: parsing WWW-Authenticate
// challenges (RFC 9110 auth-params, several challenges possibly joined in one value), encoding the
// credential, decoding the receipt and the Problem Details of a refusal.

/** A `Payment` challenge's auth-params (`request`/`opaque` kept as the exact strings received). */
export interface PaymentChallenge {
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

interface RawChallenge {
  scheme: string;
  params: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*/;

/** Parses every challenge of a WWW-Authenticate value (all schemes; params lowercased by name). */
export function parseAuthenticate(value: string): RawChallenge[] {
  const challenges: RawChallenge[] = [];
  let rest = value;
  const skip = (re: RegExp) => {
    rest = rest.replace(re, "");
  };
  while (true) {
    skip(/^[\s,]+/);
    const scheme = TOKEN.exec(rest)?.[0];
    if (!scheme) break;
    rest = rest.slice(scheme.length);
    const challenge: RawChallenge = { scheme, params: {} };
    challenges.push(challenge);
    skip(/^[ \t]+/);
    // Either a token68 (e.g. `Bearer abc==`) or a comma-separated list of name=value params.
    const t68 = TOKEN68.exec(rest)?.[0];
    if (t68 && /^[ \t]*(,|$)/.test(rest.slice(t68.length))) {
      rest = rest.slice(t68.length);
      continue;
    }
    while (true) {
      const param = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[ \t]*=[ \t]*/.exec(rest);
      if (!param) break;
      rest = rest.slice(param[0].length);
      let paramValue: string;
      const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
      if (quoted) {
        paramValue = (quoted[1] as string).replace(/\\(.)/g, "$1");
        rest = rest.slice(quoted[0].length);
      } else {
        paramValue = TOKEN.exec(rest)?.[0] ?? "";
        rest = rest.slice(paramValue.length);
      }
      challenge.params[(param[1] as string).toLowerCase()] = paramValue;
      // After a comma comes either another param of this challenge or the next challenge's scheme.
      const next = /^[ \t]*,[ \t]*/.exec(rest);
      if (!next) break;
      const after = rest.slice(next[0].length);
      if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*=/.test(after)) break;
      rest = after;
    }
  }
  return challenges;
}

/** The well-formed `Payment` challenges of a WWW-Authenticate value, in the server's order. */
export function readPaymentChallenges(value: string | undefined): PaymentChallenge[] {
  if (!value) return [];
  return parseAuthenticate(value)
    .filter((c) => c.scheme.toLowerCase() === "payment")
    .flatMap((c): PaymentChallenge[] => {
      const p = c.params;
      if (!p.id || !p.realm || !p.method || !p.intent || !p.request) return [];
      const optional = (["expires", "digest", "description", "opaque", "header"] as const).filter((k) => p[k] !== undefined);
      return [
        {
          id: p.id,
          realm: p.realm,
          method: p.method.toLowerCase(),
          intent: p.intent.toLowerCase(),
          request: p.request,
          ...Object.fromEntries(optional.map((k) => [k, p[k]])),
        },
      ];
    });
}

/** Decodes a base64url (no padding) JSON value; undefined when it is not one. */
export function decodeBase64UrlJson(value: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) return undefined;
  try {
    return JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
}

/** `Payment <base64url(JSON)>`: the credential header value. */
export function encodeCredential(credential: { challenge: PaymentChallenge; payload: Record<string, unknown>; source?: string }): string {
  return `Payment ${Buffer.from(JSON.stringify(credential), "utf8").toString("base64url")}`;
}

/** The `Payment-Receipt` of a paid answer, when present and successful. */
export function readReceipt(value: string | undefined): { reference: string; method?: string; timestamp?: string } | undefined {
  const receipt = value ? decodeBase64UrlJson(value.trim()) : undefined;
  if (typeof receipt !== "object" || receipt === null) return undefined;
  const r = receipt as Record<string, unknown>;
  if (r.status !== "success" || typeof r.reference !== "string") return undefined;
  return {
    reference: r.reference,
    ...(typeof r.method === "string" ? { method: r.method } : {}),
    ...(typeof r.timestamp === "string" ? { timestamp: r.timestamp } : {}),
  };
}
