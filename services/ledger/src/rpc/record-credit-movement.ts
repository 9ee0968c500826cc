// RecordCreditMovement (admin only): an operator's grant, refund or adjustment, on the record with the
// verified caller identity; idempotent on the reference.
import type { UnaryHandler } from "@agentic/platform";
import type { RecordCreditMovementRequest, RecordCreditMovementResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";

export function recordCreditMovement(ledger: Ledger): UnaryHandler<RecordCreditMovementRequest, RecordCreditMovementResponse> {
  // The caller is always set behind guardService; "" would be refused as a missing operator, never guessed.
  return async (req, ctx) => ledger.recordCreditMovement({ ...req, operator: ctx.caller ?? "" });
}
