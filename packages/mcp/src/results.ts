// Tool results. An answer is structuredContent (matching the tool's output schema) and the same JSON
// as text, for clients that read text only. A failure is a result with isError: true, never a
// protocol error, so the agent reads what went wrong and what to do: the API's code, message and
// hint, and for a 402 how many credits are missing.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AgenticApiError, InsufficientCreditsError } from "@agentic-api/sdk";

export function answer(structured: Record<string, unknown>, note?: string): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(structured) }, ...(note ? [{ type: "text" as const, text: note }] : [])],
    structuredContent: structured,
  };
}

/** What a failed call reports, as the JSON of its error result. */
export interface ToolError {
  success: false;
  code: string;
  error: string;
  hint?: string;
  /** HTTP status of the API's answer; absent when no answer came or the server refused the arguments itself. */
  status?: number;
  traceId?: string;
  executionId?: string;
  retryAfterSeconds?: number;
  requiredCredits?: number;
  balanceCredits?: number;
  missingCredits?: number;
  idempotencyKey?: string;
  idempotencyKeyDerived?: boolean;
}

const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

export function failure(error: ToolError): CallToolResult {
  const missing = error.missingCredits !== undefined ? ` ${error.missingCredits} credits are missing.` : "";
  const hint = error.hint ? ` ${sentence(error.hint)}` : "";
  return {
    content: [
      { type: "text", text: `${error.code}: ${sentence(error.error)}${missing}${hint}` },
      { type: "text", text: JSON.stringify(error) },
    ],
    isError: true,
  };
}

/** The tool error for an argument the server refuses before calling the API. */
export function invalidArguments(message: string, hint: string): CallToolResult {
  return failure({ success: false, code: "INVALID_INPUT", error: message, hint });
}

/** The API's (or the SDK's) error as a tool error; anything else is reported without its internals. */
export function errorOf(err: unknown): ToolError {
  if (!(err instanceof AgenticApiError)) {
    return {
      success: false,
      code: "MCP_SERVER_ERROR",
      error: "the MCP server failed to handle this call",
      hint: "Try again; report it if it persists.",
    };
  }
  return {
    success: false,
    code: err.code,
    error: err.message,
    ...(err.hint !== undefined ? { hint: err.hint } : {}),
    ...(err.status !== undefined ? { status: err.status } : {}),
    ...(err.traceId !== undefined ? { traceId: err.traceId } : {}),
    ...(err.executionId !== undefined ? { executionId: err.executionId } : {}),
    ...(err.retryAfter !== undefined ? { retryAfterSeconds: err.retryAfter } : {}),
    ...(err instanceof InsufficientCreditsError
      ? {
          ...(err.requiredCredits !== undefined ? { requiredCredits: err.requiredCredits } : {}),
          ...(err.balanceCredits !== undefined ? { balanceCredits: err.balanceCredits } : {}),
          ...(err.missingCredits !== undefined ? { missingCredits: err.missingCredits } : {}),
        }
      : {}),
  };
}
