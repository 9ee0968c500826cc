// What the load scenarios send and the system settings they run under, shared by `npm run bench`
// (run.mjs) and `npm run bench:side-by-side`, so both measure the same requests.
import { randomUUID } from "node:crypto";

/**
 * Head sampling as production runs it (deploy/k8s: parentbased_traceidratio, 10 % in the prod overlay):
 * the load figures are what a production replica pays for tracing. The traced pass samples everything.
 */
export const PRODUCTION_SAMPLING = { OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.1" };

/** Per-key limits out of reach: a scenario drives one key as hard as it can to measure capacity. */
export const LIMITS_OUT_OF_REACH = { RATE_LIMIT_RPS: "100000", RATE_LIMIT_BURST: "100000", RATE_LIMIT_MAX_IN_FLIGHT: "100000" };

/** The recommend every scenario sends (to email.send). */
export const RECOMMEND_BODY = JSON.stringify({ optimizationPreferences: ["cost"] });

/** The chat completion the Portkey comparison sends, to the vendor directly, through Portkey's gateway, and as our execute. */
export const CHAT = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Say hi" }], max_tokens: 16 };

/** Our execute of it pinned to the sandbox's OpenAI route, as Portkey is pointed at that one vendor. */
export const CHAT_EXECUTE_BODY = JSON.stringify({ ...CHAT, provider: "openai", allowFallback: false });

/** A new Idempotency-Key, as the SDK sends with every execute (the executor then claims it at the ledger). */
export const idempotencyKey = () => ({ "idempotency-key": randomUUID() });

/** An API call with key `key` and a JSON body. */
const jsonCallHeaders = (key) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });

/** The email.send capability: what recommend ranks, and what the email executes run. */
export const emailSendUrl = (base) => `${base}/domains/email/capabilities/send`;

/** POST recommend for email.send with key `key`, as every recommend scenario sends it. */
export const recommendRequest = (base, key) => ({
  url: `${emailSendUrl(base)}/recommend`,
  method: "POST",
  headers: jsonCallHeaders(key),
  body: RECOMMEND_BODY,
});

/** Our execute of the chat completion with key `key`, a fresh Idempotency-Key each: the Portkey comparison's. */
export const chatExecuteRequest = (base, key) => ({
  url: `${base}/domains/models/capabilities/chat-complete/execute`,
  method: "POST",
  headers: jsonCallHeaders(key),
  body: CHAT_EXECUTE_BODY,
  freshHeaders: idempotencyKey,
});

/** Funds the development wallet for executes; resolves why it could not, or undefined. */
export async function fundDevWallet(base) {
  const init = await fetch(`${base}/dev/init`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ userId: "dev-user", balanceCredits: 100_000_000 }),
    signal: AbortSignal.timeout(10_000),
  });
  if (init.ok) return undefined;
  const text = await init.text();
  return `could not fund the dev wallet: POST /dev/init answered ${init.status} ${text.length > 200 ? `${text.slice(0, 200)}...` : text}`;
}
