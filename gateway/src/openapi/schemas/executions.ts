// components.schemas of GET /executions/{executionId}.

import { EXECUTION_ID_PATTERN } from "../../errors";
import { arrayOf, bool, int, objectSchema, oneOfValues, opt, ref, req, str, EXECUTION_STATES, HOLD_STATES } from "../json-schema";
import type { JsonObject, SchemaName } from "../document";
import type { Examples } from "../examples";

export function executionSchemas(ex: Examples): Partial<Record<SchemaName, JsonObject>> {
  return {
    ExecutionStatusResponse: objectSchema(
      "Where one execution of the caller stands.",
      {
        success: req(bool("Always true.", { const: true })),
        execution: req(ref("Execution")),
      },
      { examples: [ex.executionStatus] },
    ),

    Execution: objectSchema(
      "One execution: what an execute call (or the first call under an Idempotency-Key) started, its attempts and how it ended. " +
        "Kept 24 hours after it was created.",
      {
        executionId: req(str("Id of the execution, as in the `Execution-Id` header.", { pattern: EXECUTION_ID_PATTERN.source })),
        state: req(
          oneOfValues(
            EXECUTION_STATES,
            "What the execution means for the client. " +
              "`claimed`: an Idempotency-Key reserved it and no attempt started yet, so no provider was reached: wait and read again. " +
              "`running`: an attempt holds credits and its provider call may be in flight: wait and read again (see `indeterminate`). " +
              "`succeeded`: it ended with a result (`result`) and was charged exactly `creditsCharged`. " +
              "`failed`: it ended with an error (`result`); nothing was charged. " +
              "`outcome_unknown`: it was abandoned mid-call (the service lost its provider call while in flight): nothing was charged, " +
              "but the provider may have acted, so check the effect (for example the sent message) before trying again with a new Idempotency-Key. " +
              "`succeeded`, `failed` and `outcome_unknown` are final.",
          ),
        ),
        indeterminate: req(
          bool(
            "True while `running` past its lease: the provider may have been reached and the outcome is being reconciled. " +
              "It will not be run again, and its hold stays until the outcome is known; it then ends as `succeeded`, `failed` or `outcome_unknown`. " +
              "Read again later (a retry of its key answers 409 EXECUTION_INDETERMINATE with Retry-After).",
          ),
        ),
        capabilityKey: req(str("`<domainKey>.<capabilityId>`.", { examples: ["email.send"] })),
        idempotencyKey: opt(str("The Idempotency-Key it runs under, when the request sent one.")),
        createdAt: req(str(undefined, { format: "date-time" })),
        completedAt: opt(str("When it reached a final state.", { format: "date-time" })),
        creditsCharged: req(int("Credits charged for it: the sum of its attempts' `chargedCredits`.", { minimum: 0 })),
        attempts: req(
          arrayOf(ref("ExecutionAttempt"), "Its provider attempts, oldest first (one per route tried; empty while `claimed`)."),
        ),
        result: opt(ref("ExecutionResult")),
      },
      { examples: [ex.executionView] },
    ),

    ExecutionAttempt: objectSchema(
      "One provider attempt of an execution, with the credits held for it.",
      {
        holdId: req(str("Id of the attempt's credit hold.")),
        routeKey: req(str("Route the attempt called.")),
        heldCredits: req(
          int("Credits held for the attempt: the route's price, or on a `per_token` route the most the request could cost.", {
            minimum: 0,
          }),
        ),
        state: req(
          oneOfValues(
            HOLD_STATES,
            "`held`: the credits are reserved while the call is in flight or its outcome awaited. `captured`: charged `chargedCredits`. " +
              "`released`: given back (the attempt failed; nothing charged). `expired`: given back after the hold's lifetime without an outcome (nothing charged).",
          ),
        ),
        chargedCredits: req(int("Credits charged for the attempt (0 unless captured).", { minimum: 0 })),
        createdAt: req(str(undefined, { format: "date-time" })),
        settledAt: opt(str("When the hold left `held`.", { format: "date-time" })),
      },
      { examples: [ex.executionAttempt] },
    ),

    ExecutionResult: objectSchema(
      "The answer the execution ended with, as execute gave it (and as a retry with its Idempotency-Key replays it).",
      {
        httpStatus: req(int("HTTP status of the answer.", { minimum: 100, maximum: 599 })),
        body: req({
          description:
            "The answer's body: a GenericExecutionResponse when `httpStatus` is 200 (with `data` only for an execution under an Idempotency-Key: " +
            "the provider's data of other executions is not kept), else an ErrorResponse.",
          oneOf: [ref("GenericExecutionResponse"), ref("ErrorResponse")],
        }),
      },
      { examples: [ex.executionResult] },
    ),
  };
}
