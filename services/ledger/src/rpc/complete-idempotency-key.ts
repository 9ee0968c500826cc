// CompleteIdempotencyKey: stores the result to replay; the first completion wins. NOT_FOUND
// (IDEMPOTENCY_KEY_NOT_FOUND) for a key that was never claimed or whose record expired.
import type { UnaryHandler } from "@agentic/platform";
import type { CompleteIdempotencyKeyRequest, CompleteIdempotencyKeyResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { invalidField } from "../domain/errors";

export function completeIdempotencyKey(ledger: Ledger): UnaryHandler<CompleteIdempotencyKeyRequest, CompleteIdempotencyKeyResponse> {
  return async (req) => {
    if (!req.result) throw invalidField("result", "result is required.", "Send the HTTP status and body to replay.");
    await ledger.completeIdempotencyKey({
      userId: req.userId,
      key: req.idempotencyKey,
      result: { httpStatus: req.result.httpStatus, body: req.result.body },
    });
    return {};
  };
}
