// The ledger's record of an execution's outcome (OutcomeRecords): what the ledger keeps for an
// Idempotency-Key and for GET /executions, and what a settlement carries, written as the HTTP answer
// it replays: 200 with the ExecuteResponse's JSON, or the error's HTTP status with its body. Records
// written before errors carried a kind name their gRPC status instead (`grpcStatus`); they still read.
import { errorKindOf } from "@agentic/platform";
import { AppError, httpStatusOf, isErrorKind, type ErrorKind } from "@agentic/platform/core";
import { ExecuteResponse } from "@agentic/proto/executor/v1";
import type { StoredResult } from "@agentic/proto/ledger/v1";
import type { StoredOutcome } from "./domain/execution";
import { replayedError } from "./domain/idempotency";
import type { OutcomeRecords } from "./domain/ports";

/** The ledger record of an outcome. */
export function encodeOutcome(outcome: StoredOutcome): StoredResult {
  if (outcome.ok) return { httpStatus: 200, body: ExecuteResponse.toJSON(outcome.response) as Record<string, unknown> };
  const e = outcome.error;
  return {
    // The HTTP status the gateway answers with, so the record reads like the response it replays.
    httpStatus: httpStatusOf(e.kind, e.code),
    body: {
      success: false,
      error: e.message,
      code: e.code,
      hint: e.hint,
      kind: e.kind,
      ...(e.details ? { details: e.details } : {}),
    },
  };
}

/** The kind a stored error names: its `kind`, or on an older record the kind of its `grpcStatus`; else internal. */
function storedKind(body: Record<string, unknown>): ErrorKind {
  if (typeof body.kind === "string") return isErrorKind(body.kind) ? body.kind : "internal";
  return typeof body.grpcStatus === "number" ? errorKindOf(body.grpcStatus) : "internal";
}

/**
 * The outcome a ledger record stores, as replayed: a response is marked `replayed`; an error keeps
 * its advice but says that it is the key's stored result (see replayedError).
 */
export function decodeOutcome(result: StoredResult): StoredOutcome {
  const body = result.body ?? {};
  if (result.httpStatus === 200) return { ok: true, response: { ...ExecuteResponse.fromJSON(body), replayed: true } };
  const details = typeof body.details === "object" && body.details !== null ? (body.details as Record<string, unknown>) : undefined;
  return {
    ok: false,
    error: replayedError(
      new AppError(
        storedKind(body),
        String(body.code ?? "INTERNAL"),
        String(body.error ?? "internal error"),
        String(body.hint ?? ""),
        details,
      ),
    ),
  };
}

export const outcomeRecords: OutcomeRecords = { encode: encodeOutcome, decode: decodeOutcome };
