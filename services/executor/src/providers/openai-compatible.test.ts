import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { openaiProvider } from "./openai";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(openaiProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const input = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Say hi" }], max_tokens: 50, temperature: 0.2 };

describe("OpenAI-compatible adapter (models.chat.complete)", () => {
  it("builds a non-streaming POST {baseUrl}/chat/completions with the OpenAI fields", () => {
    expect(
      adapter.buildRequest(
        "models.chat.complete",
        { ...input, stream: true },
        { baseUrl: "https://api.openai.com/v1", credentials: { apiKey: "sk-1" } },
      ),
    ).toEqual({
      method: "POST",
      url: "https://api.openai.com/v1/chat/completions",
      headers: { Authorization: "Bearer sk-1" },
      body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "Say hi" }], max_tokens: 50, temperature: 0.2, stream: false },
    });
    expect(() => adapter.buildRequest("models.chat.complete", { model: "m", messages: [] }, { baseUrl: "https://x" })).toThrow(
      expect.objectContaining({ kind: "invalid_input" }),
    );
  });

  it("normalizes the completion and maps {error: {...}}", () => {
    const body = {
      id: "chatcmpl-1",
      object: "chat.completion",
      model: "gpt-4o-mini",
      choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 },
    };
    expect(adapter.parseResponse("models.chat.complete", response(200, body), input)).toEqual({
      status: "completed",
      providerMessageId: "chatcmpl-1",
      data: {
        completionText: "hi",
        model: "gpt-4o-mini",
        finishReason: "stop",
        usage: { promptTokens: 2, completionTokens: 1, totalTokens: 3 },
      },
      usage: { inputTokens: 2, outputTokens: 1 },
    });
    // A usage the vendor did not give (or gave garbled) is not guessed: the executor then charges the hold.
    const noUsage = adapter.parseResponse(
      "models.chat.complete",
      response(200, { ...body, usage: { prompt_tokens: -1, completion_tokens: 1 } }),
      input,
    );
    expect(noUsage.usage).toBeUndefined();
    expect(() =>
      adapter.parseResponse(
        "models.chat.complete",
        response(404, { error: { message: "The model `x` does not exist", type: "invalid_request_error", code: "model_not_found" } }),
        input,
      ),
    ).toThrow(expect.objectContaining({ vendorCode: "model_not_found", blame: "input" }));
    expect(() =>
      adapter.parseResponse(
        "models.chat.complete",
        response(401, { error: { message: "Incorrect API key", type: "invalid_request_error", code: "invalid_api_key" } }),
        input,
      ),
    ).toThrow(expect.objectContaining({ blame: "provider" }));
  });

  it("completes directly with our OpenAI key through the sandbox", async () => {
    const { result } = await routes.execute("openai", "direct", "models.chat.complete", input);
    // 3 + 3 + 1 ("user") + 2 ("Say hi") prompt tokens; the 24-byte reply is 6.
    expect(result.data).toMatchObject({
      completionText: "Sandbox reply to: Say hi",
      finishReason: "stop",
      usage: { promptTokens: 9, completionTokens: 6 },
    });
    expect(result.usage).toEqual({ inputTokens: 9, outputTokens: 6 });
  });

  it("completes over MPP with a DeepSeek-style host, no key", async () => {
    const { res, result } = await routes.execute("deepseek", "mpp", "models.chat.complete", {
      model: "deepseek-chat",
      messages: [{ role: "user", content: "ping" }],
    });
    expect(res.payment).toMatchObject({ rail: "mpp", amountAtomic: "2000", settlement: "settled" });
    expect(routes.sandbox().control.calls("deepseek")[1]?.headers.authorization).toMatch(/^Payment /);
    expect(result.data.completionText).toBe("Sandbox reply to: ping");
  });
});
