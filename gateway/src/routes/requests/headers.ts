// The request headers of the calls that name an agent, a retry key or a payment (recommend, execute,
// quote, the wallet, top-ups), declared once: the routes parse with them (parseHeaders) and the
// document's header parameters are built from them.
import { z } from "zod";
import { IDEMPOTENCY_KEY_CHARACTERS, MAX_AGENT_NAME_LENGTH, MAX_IDEMPOTENCY_KEY_LENGTH } from "@agentic/platform";
import { hinted } from "../../http/request-schema";
import { agentNameValue } from "./values";

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A header value as text. Node reads header bytes as latin1, while clients send names in UTF-8 (HTTP
 * leaves the charset open): bytes that are valid UTF-8 are read as such, so "alpha" + U+200B arrives
 * as that, not as latin1 mojibake; anything else stays latin1.
 */
function headerText(value: string): string {
  if (!/[\x80-\xff]/.test(value)) return value;
  try {
    return UTF8.decode(Buffer.from(value, "latin1"));
  } catch {
    return value;
  }
}

/** The hint of a repeated or malformed Agent-Name. */
const AGENT_NAME_HINT = "Send the calling agent's name, e.g. alpha_agent, once in Agent-Name, or leave it out.";

/**
 * Agent-Name, normalized (normalizeAgentName: "Alpha" and "alpha" with a zero-width space are "alpha");
 * refused when not an agent name once normalized. Its length is the platform's rule for every agent name.
 */
const agentName = hinted(
  agentNameValue(headerText)
    .optional()
    .meta({
      description:
        "Name of the calling agent: shown in usage items, and the router applies the optimization preferences this agent last sent to recommend. " +
        "Compared and recorded normalized (Unicode NFKC, case folded, invisible format characters removed): `Alpha` is `alpha`. " +
        "A key issued for one agent acts as that agent whatever is sent (leave it out, or send that name; another is a 400); " +
        "a key requiring agents needs one of its names here (anything else, or none, is a 400).",
      minLength: 1,
      maxLength: MAX_AGENT_NAME_LENGTH,
      example: "alpha_agent",
    }),
  AGENT_NAME_HINT,
);

const NOT_AN_IDEMPOTENCY_KEY = `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`;

/** Idempotency-Key: the platform's rule, checked here before anything is done for the request. */
const idempotencyKey = hinted(
  z
    .string()
    .min(1, { error: NOT_AN_IDEMPOTENCY_KEY })
    .max(MAX_IDEMPOTENCY_KEY_LENGTH, { error: NOT_AN_IDEMPOTENCY_KEY })
    .refine((key) => IDEMPOTENCY_KEY_CHARACTERS.test(key), { error: NOT_AN_IDEMPOTENCY_KEY })
    .optional()
    .meta({
      description:
        "Makes the execution safe to retry. The first result for a user and key (success or error, once the request passed " +
        "validation) is stored for 24 hours and replayed for a retry with the same body, with no second charge or provider call. " +
        "The same key with a different body answers 409 IDEMPOTENCY_CONFLICT; a retry while the first request still runs waits " +
        "for its result, or answers 409 IDEMPOTENCY_IN_PROGRESS (or EXECUTION_INDETERMINATE once it runs past its lease) with Retry-After " +
        "and the execution's id. An execution abandoned mid-call replays 502 EXECUTION_OUTCOME_UNKNOWN. Bodies rejected with 400 are not stored.",
      example: "order-1234-confirmation",
    }),
  "Send a fresh random key per operation, e.g. a UUID, in the Idempotency-Key header.",
  {
    repeated: {
      hint: `Send one Idempotency-Key of at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, e.g. a UUID, or leave it out.`,
    },
  },
);

const NOT_BASE64_JSON = "not base64 JSON";

/** PAYMENT-SIGNATURE, decoded: the JSON text of the payment payload (an object); anything else is a 400. */
const paymentSignature = hinted(
  z
    .string()
    .min(1, { error: NOT_BASE64_JSON })
    .transform((value, ctx) => {
      const raw = value.trim();
      let parsed: unknown;
      try {
        parsed = /^[A-Za-z0-9+/=_-]+$/.test(raw) ? JSON.parse(Buffer.from(raw, "base64").toString("utf8")) : undefined;
      } catch {
        parsed = undefined;
      }
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return JSON.stringify(parsed);
      ctx.issues.push({ code: "custom", message: NOT_BASE64_JSON, input: value });
      return z.NEVER;
    })
    .optional()
    .meta({
      description:
        "x402 v2 payment, base64 of a JSON PaymentPayload answering a PAYMENT-REQUIRED offer (scheme `exact`: an EIP-3009 authorization signed by the payer). " +
        "The ledger verifies and settles it and credits the wallet once per payment (network, asset, payer, nonce).",
    }),
  "Send one PAYMENT-SIGNATURE: the base64 JSON of an x402 v2 PaymentPayload for the requirements of PAYMENT-REQUIRED.",
  { repeated: { problem: "must be sent once" } },
);

/** The headers naming the calling agent (recommend, quote, the wallet). */
export const agentHeaders = z.object({ "Agent-Name": agentName });

/** Execute's headers before its body is read: the retry key, then the agent. */
export const executeHeaders = z.object({ "Idempotency-Key": idempotencyKey, "Agent-Name": agentName });

/** A payment for credits (execute with a ledger, POST /wallet/top-up). */
export const paymentHeaders = z.object({ "PAYMENT-SIGNATURE": paymentSignature });

/**
 * The catalog reads' conditional header. Never refused: any value is read by catalog/not-modified.ts
 * (through `fresh`, on the cached-reads path before express), so this object only describes it.
 */
export const conditionalHeaders = z.object({
  "If-None-Match": z
    .string()
    .optional()
    .meta({ description: "ETag of a copy you have; answers 304 with an empty body while it is still current." }),
});
