// The x402 facilitator, as the ledger asks it (standard HTTP API: POST /verify, POST /settle with
// {x402Version, paymentPayload, paymentRequirements}). Every answer is classified for the money rules:
// a definite yes, a definite no with the facilitator's reason, or unknown (timeout, network error,
// a status or body that is not a facilitator answer): after an unknown settle the transfer may or
// may not have happened, so the top-up stays pending.

import type { Facilitator, FacilitatorBody } from "../domain/facilitator-port";

/** A facilitator at `baseUrl` (e.g. https://x402.org/facilitator); each call is cut off after `timeoutMs`. */
export function httpFacilitator(baseUrl: string, timeoutMs: number): Facilitator {
  const base = baseUrl.replace(/\/+$/, "");
  async function post(
    op: "verify" | "settle",
    body: FacilitatorBody,
  ): Promise<{ ok: true; json: Record<string, unknown> } | { ok: false; error: string }> {
    try {
      const res = await fetch(`${base}/${op}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return { ok: false, error: `facilitator ${op} answered ${res.status} without JSON` };
      }
      // A 4xx/5xx with a facilitator body (isValid / success) is still its answer; anything else is not.
      if (typeof json !== "object" || json === null || Array.isArray(json))
        return { ok: false, error: `facilitator ${op} answered ${res.status} with a non-object` };
      return { ok: true, json: json as Record<string, unknown> };
    } catch (err) {
      return {
        ok: false,
        error: `facilitator ${op} failed: ${(err as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (err as Error).message}`,
      };
    }
  }
  return {
    async verify(body) {
      const answer = await post("verify", body);
      if (!answer.ok) return { kind: "unknown", error: answer.error };
      const { isValid, invalidReason, invalidMessage, payer } = answer.json;
      if (isValid === true) return { kind: "valid", ...(typeof payer === "string" ? { payer } : {}) };
      if (isValid === false)
        return {
          kind: "invalid",
          reason: typeof invalidReason === "string" && invalidReason ? invalidReason : "invalid_payment",
          ...(typeof invalidMessage === "string" ? { message: invalidMessage } : {}),
        };
      return { kind: "unknown", error: "facilitator verify answered without isValid" };
    },
    async settle(body) {
      const answer = await post("settle", body);
      if (!answer.ok) return { kind: "unknown", error: answer.error };
      const { success, transaction, errorReason, errorMessage } = answer.json;
      if (success === true)
        return { kind: "settled", ...(typeof transaction === "string" && transaction ? { transaction } : {}), response: answer.json };
      if (success === false) {
        return {
          kind: "refused",
          reason: typeof errorReason === "string" && errorReason ? errorReason : "settlement_failed",
          ...(typeof errorMessage === "string" ? { message: errorMessage } : {}),
          response: answer.json,
        };
      }
      return { kind: "unknown", error: "facilitator settle answered without success" };
    },
  };
}
