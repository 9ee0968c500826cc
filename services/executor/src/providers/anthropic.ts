// Anthropic's Messages API (models.chat.complete): POST {baseUrl}/v1/messages with `x-api-key` (direct
// routes) and `anthropic-version`; {model, max_tokens (required: 1024 when not given), system, messages
// [{role: user|assistant, content}], temperature, top_p, stop_sequences} → {id, model, content: [{type:
// "text", text}], stop_reason, usage: {input_tokens, output_tokens}}; errors {type: "error", error: {type,
// message}} (529 overloaded). Our OpenAI-style messages map over: system messages become `system`.
import { InputReader, inputRefusal } from "./input";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";
import { DEFAULT_MAX_OUTPUT_TOKENS } from "../domain/pricing";

const KEY = "anthropic";

const ANTHROPIC_VERSION = "2023-06-01";

/** Anthropic's stop reasons in OpenAI's finish-reason words, which our response uses. */
const FINISH_REASON: Readonly<Record<string, string>> = {
  end_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};

export const anthropicProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.anthropic.com" },
  capabilities: {
    "models.chat.complete": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const messages = read.raw("messages");
        const refuse = (message: string): never => {
          throw inputRefusal(KEY, message, "messages");
        };
        if (!Array.isArray(messages) || messages.length === 0) refuse("`messages` must be a non-empty array of {role, content}");
        const list = messages as unknown[];
        if (!list.every((m) => isRecord(m) && typeof m.role === "string" && typeof m.content === "string"))
          refuse("`messages` must be a non-empty array of {role, content}");
        const typed = list as Array<{ role: string; content: string }>;
        if (typed.some((m) => m.role === "tool")) refuse("tool messages are not supported on the anthropic route");
        const system = typed.filter((m) => m.role === "system").map((m) => m.content);
        const turns = typed.filter((m) => m.role !== "system").map((m) => ({ role: m.role, content: m.content }));
        if (turns.length === 0) refuse("`messages` needs at least one user or assistant message");
        const maxTokens = read.number("max_tokens", { integer: true, min: 1 }) ?? DEFAULT_MAX_OUTPUT_TOKENS;
        const temperature = read.number("temperature", { min: 0, max: 1 });
        const topP = read.number("top_p", { min: 0, max: 1 });
        const stop = read.strings("stop");
        return {
          method: "POST",
          url: `${ctx.baseUrl}/v1/messages`,
          headers: { "anthropic-version": ANTHROPIC_VERSION, ...ourKeyAs(ctx, "x-api-key") },
          body: {
            model: read.string("model", true),
            max_tokens: maxTokens,
            ...(system.length ? { system: system.join("\n\n") } : {}),
            messages: turns,
            ...(temperature !== undefined ? { temperature } : {}),
            ...(topP !== undefined ? { top_p: topP } : {}),
            ...(stop.length ? { stop_sequences: stop } : {}),
          },
        };
      },
      parse(res) {
        if (res.status !== 200) {
          const error = isRecord(res.body) && isRecord(res.body.error) ? res.body.error : undefined;
          throw vendorError(KEY, res, { code: stringField(error, "type"), message: stringField(error, "message") });
        }
        const content = isRecord(res.body) && Array.isArray(res.body.content) ? res.body.content.filter(isRecord) : undefined;
        if (!content) throw invalidResponse(KEY, res, "without content");
        const text = content
          .filter((c) => c.type === "text" && typeof c.text === "string")
          .map((c) => c.text as string)
          .join("");
        const usage = isRecord(res.body) && isRecord(res.body.usage) ? res.body.usage : {};
        const count = (v: unknown) => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : undefined);
        const [inputTokens, outputTokens] = [count(usage.input_tokens), count(usage.output_tokens)];
        const stopReason = stringField(res.body, "stop_reason");
        const id = stringField(res.body, "id");
        return {
          status: "completed",
          ...(id ? { providerMessageId: id } : {}),
          data: {
            completionText: text,
            model: stringField(res.body, "model") ?? null,
            finishReason: stopReason ? (FINISH_REASON[stopReason] ?? stopReason) : null,
            usage: {
              promptTokens: inputTokens ?? null,
              completionTokens: outputTokens ?? null,
              totalTokens: inputTokens !== undefined && outputTokens !== undefined ? inputTokens + outputTokens : null,
            },
          },
          ...(inputTokens !== undefined && outputTokens !== undefined ? { usage: { inputTokens, outputTokens } } : {}),
        };
      },
    },
  },
});
