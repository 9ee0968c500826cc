// components.schemas.ErrorResponse: the one body of every error answer, declared with zod.

import { z } from "zod";
import { EXECUTION_ID_PATTERN } from "../../errors";

const credits = (description: string) => z.int().min(0).optional().meta({ description });

export function errorResponseAnswers() {
  const ErrorResponse = z
    .strictObject({
      success: z.literal(false).optional().meta({ description: "Always false." }),
      error: z.string().optional().meta({ description: "Human-readable message." }),
      code: z
        .string()
        .regex(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/)
        .optional()
        .meta({
          description:
            "Machine-readable UPPER_SNAKE code: INVALID_INPUT, INVALID_JSON, INVALID_BODY, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, UNSUPPORTED_ENCODING, UNKNOWN_PROVIDER, UNKNOWN_ROUTE, PROVIDER_REJECTED_INPUT, AGENTIC_API_KEY_REQUIRED, INVALID_API_KEY, CREDITS_REQUIRED, DOMAIN_NOT_FOUND, CAPABILITY_NOT_FOUND, CAPABILITY_GATED, IDEMPOTENCY_CONFLICT, IDEMPOTENCY_IN_PROGRESS, SENDER_NOT_OWNED, EXECUTION_INDETERMINATE, EXECUTION_OUTCOME_UNKNOWN, EXECUTION_NOT_FOUND, RESOURCE_NOT_FOUND, PROVIDER_ERROR, PROVIDER_TIMEOUT, ROUTE_UNAVAILABLE, SETTLEMENT_UNCONFIRMED, UNAVAILABLE, EXECUTOR_DRAINING, TIMEOUT.",
        }),
      hint: z.string().optional().meta({ description: "What to do next." }),
      executionId: z.string().regex(EXECUTION_ID_PATTERN).optional().meta({
        description:
          "Extension of this service: the execution the error is about (also sent as the `Execution-Id` header); read it at GET /executions/{executionId}.",
      }),
      traceId: z.string().optional().meta({ description: "Extension of this service: W3C trace id of the request, for support." }),
      requiredCredits: credits(
        "Extension of this service, 402 CREDITS_REQUIRED only: credits the call needs (the route's price, or the most a per-token request can cost).",
      ),
      balanceCredits: credits("Extension of this service, 402 CREDITS_REQUIRED only: credits available in the wallet."),
      missingCredits: credits(
        "Extension of this service, 402 CREDITS_REQUIRED only: how many credits to add (requiredCredits - balanceCredits).",
      ),
      nextActions: z.array(z.string()).optional().meta({
        description:
          "Extension of this service: what to do to get past this refusal (e.g. the senders email.send may use, how to link a social account).",
      }),
    })
    .meta({
      description:
        "Error body. The spec marks every field optional; this server always sends `success` (false), `error`, `code` and `hint`, " +
        "`executionId` when the error is about an execution, and `traceId` when the request was traced.",
    });
  return { ErrorResponse };
}
