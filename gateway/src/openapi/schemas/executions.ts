// components.schemas of GET /executions/{executionId}, declared with zod (the document is built from
// them by componentSchemasOf).

import { z } from "zod";
import { EXECUTION_ID_PATTERN } from "../../errors";
import { EXECUTION_STATES, HOLD_STATES } from "../json-schema";
import type { Examples } from "../examples";

const dateTime = (description?: string) => z.string().meta({ format: "date-time", ...(description ? { description } : {}) });

/** The answers of GET /executions/{executionId}; `answers` are the components it refers to (GenericExecutionResponse, ErrorResponse). */
export function executionAnswers(ex: Examples, answers: { GenericExecutionResponse: z.ZodType; ErrorResponse: z.ZodType }) {
  const ExecutionAttempt = z
    .strictObject({
      holdId: z.string().meta({ description: "Id of the attempt's credit hold." }),
      routeKey: z.string().meta({ description: "Route the attempt called." }),
      heldCredits: z.int().min(0).meta({
        description: "Credits held for the attempt: the route's price, or on a `per_token` route the most the request could cost.",
      }),
      state: z.enum(HOLD_STATES as [string, ...string[]]).meta({
        description:
          "`held`: the credits are reserved while the call is in flight or its outcome awaited. `captured`: charged `chargedCredits`. " +
          "`released`: given back (the attempt failed; nothing charged). `expired`: given back after the hold's lifetime without an outcome (nothing charged).",
      }),
      chargedCredits: z.int().min(0).meta({ description: "Credits charged for the attempt (0 unless captured)." }),
      createdAt: dateTime(),
      settledAt: dateTime("When the hold left `held`.").optional(),
    })
    .meta({ description: "One provider attempt of an execution, with the credits held for it.", examples: [ex.executionAttempt] });

  const ExecutionResult = z
    .strictObject({
      httpStatus: z.int().min(100).max(599).meta({ description: "HTTP status of the answer." }),
      body: z.xor([answers.GenericExecutionResponse, answers.ErrorResponse]).meta({
        description:
          "The answer's body: a GenericExecutionResponse when `httpStatus` is 200 (with `data` only for an execution under an Idempotency-Key: " +
          "the provider's data of other executions is not kept), else an ErrorResponse.",
      }),
    })
    .meta({
      description: "The answer the execution ended with, as execute gave it (and as a retry with its Idempotency-Key replays it).",
      examples: [ex.executionResult],
    });

  const Execution = z
    .strictObject({
      executionId: z.string().regex(EXECUTION_ID_PATTERN).meta({ description: "Id of the execution, as in the `Execution-Id` header." }),
      state: z.enum(EXECUTION_STATES as [string, ...string[]]).meta({
        description:
          "What the execution means for the client. " +
          "`claimed`: an Idempotency-Key reserved it and no attempt started yet, so no provider was reached: wait and read again. " +
          "`running`: an attempt holds credits and its provider call may be in flight: wait and read again (see `indeterminate`). " +
          "`succeeded`: it ended with a result (`result`) and was charged exactly `creditsCharged`. " +
          "`failed`: it ended with an error (`result`); nothing was charged. " +
          "`outcome_unknown`: it was abandoned mid-call (the service lost its provider call while in flight): nothing was charged, " +
          "but the provider may have acted, so check the effect (for example the sent message) before trying again with a new Idempotency-Key. " +
          "`succeeded`, `failed` and `outcome_unknown` are final.",
      }),
      indeterminate: z.boolean().meta({
        description:
          "True while `running` past its lease: the provider may have been reached and the outcome is being reconciled. " +
          "It will not be run again, and its hold stays until the outcome is known; it then ends as `succeeded`, `failed` or `outcome_unknown`. " +
          "Read again later (a retry of its key answers 409 EXECUTION_INDETERMINATE with Retry-After).",
      }),
      capabilityKey: z.string().meta({ description: "`<domainKey>.<capabilityId>`.", examples: ["email.send"] }),
      idempotencyKey: z.string().optional().meta({ description: "The Idempotency-Key it runs under, when the request sent one." }),
      createdAt: dateTime(),
      completedAt: dateTime("When it reached a final state.").optional(),
      creditsCharged: z.int().min(0).meta({ description: "Credits charged for it: the sum of its attempts' `chargedCredits`." }),
      attempts: z
        .array(ExecutionAttempt)
        .meta({ description: "Its provider attempts, oldest first (one per route tried; empty while `claimed`)." }),
      result: ExecutionResult.optional(),
    })
    .meta({
      description:
        "One execution: what an execute call (or the first call under an Idempotency-Key) started, its attempts and how it ended. " +
        "Kept 24 hours after it was created.",
      examples: [ex.executionView],
    });

  const ExecutionStatusResponse = z
    .strictObject({ success: z.literal(true).meta({ description: "Always true." }), execution: Execution })
    .meta({ description: "Where one execution of the caller stands.", examples: [ex.executionStatus] });

  return { ExecutionStatusResponse, Execution, ExecutionAttempt, ExecutionResult };
}
