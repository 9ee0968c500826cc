// OpenAI-compatible chat completions (models.chat.complete) for any vendor speaking that API
// (OpenAI directly; DeepSeek and others, also through MPP hosts): POST {baseUrl}/chat/completions,
// non-streaming; errors {error: {message, type, code}}.
import { InputReader, inputRefusal } from "./input";
import type { CapabilityHandler } from "./provider-table";
import { invalidResponse, isRecord, stringField } from "./vendor-error";
import { openAiError } from "./openai-error";
import { bearerAuth } from "./vendor-key";

/** Request fields passed through to the vendor when present (OpenAI names, as the contract uses). */
const OPTIONAL_FIELDS = ["max_tokens", "temperature", "top_p", "stop"] as const;

/** models.chat.complete as this vendor API speaks it, for `providerKey` (every OpenAI-compatible vendor). */
export function chatCompletions(providerKey: string): CapabilityHandler {
  return {
    request(input, ctx) {
      const read = new InputReader(providerKey, input);
      const messages = read.raw("messages");
      if (
        !Array.isArray(messages) ||
        messages.length === 0 ||
        !messages.every((m) => isRecord(m) && typeof m.role === "string" && typeof m.content === "string")
      ) {
        throw inputRefusal(providerKey, "`messages` must be a non-empty array of {role, content}");
      }
      read.number("max_tokens", { integer: true, min: 1 });
      read.number("temperature", { min: 0, max: 2 });
      read.number("top_p", { min: 0, max: 1 });
      return {
        method: "POST",
        url: `${ctx.baseUrl}/chat/completions`,
        headers: bearerAuth(ctx),
        body: {
          model: read.string("model", true),
          messages: messages.map((m) => ({ role: (m as Record<string, unknown>).role, content: (m as Record<string, unknown>).content })),
          ...Object.fromEntries(OPTIONAL_FIELDS.filter((f) => input[f] !== undefined).map((f) => [f, input[f]])),
          // One JSON answer per call: the executor bills per call and does not relay streams.
          stream: false,
        },
      };
    },

    parse(res) {
      if (res.status !== 200) throw openAiError(providerKey, res);
      const choice =
        isRecord(res.body) && Array.isArray(res.body.choices) && isRecord(res.body.choices[0]) ? res.body.choices[0] : undefined;
      const message = choice && isRecord(choice.message) ? choice.message : undefined;
      if (!message || (typeof message.content !== "string" && message.content !== null))
        throw invalidResponse(providerKey, res, "without choices[0].message");
      const usage = isRecord(res.body) && isRecord(res.body.usage) ? res.body.usage : {};
      const num = (v: unknown) => (typeof v === "number" ? v : null);
      const count = (v: unknown) => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : undefined);
      const [inputTokens, outputTokens] = [count(usage.prompt_tokens), count(usage.completion_tokens)];
      const id = stringField(res.body, "id");
      return {
        status: "completed",
        ...(id ? { providerMessageId: id } : {}),
        data: {
          completionText: message.content ?? "",
          model: stringField(res.body, "model") ?? null,
          finishReason: stringField(choice, "finish_reason") ?? null,
          usage: {
            promptTokens: num(usage.prompt_tokens),
            completionTokens: num(usage.completion_tokens),
            totalTokens: num(usage.total_tokens),
          },
        },
        // What the vendor billed: a per-token route is charged by it (a usage it did not give is not guessed).
        ...(inputTokens !== undefined && outputTokens !== undefined ? { usage: { inputTokens, outputTokens } } : {}),
      };
    },
  };
}
