import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { anthropicProvider } from "./anthropic";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(anthropicProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const model = "claude-3-5-haiku-20241022";

describe("Anthropic adapter (models.chat.complete over the Messages API)", () => {
  it("turns OpenAI-style messages into a Messages request: system apart, max_tokens always sent, stop as stop_sequences", () => {
    const req = adapter.buildRequest(
      "models.chat.complete",
      {
        model,
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Hi" },
        ],
        temperature: 0.3,
        stop: ["END"],
      },
      { baseUrl: "https://api.anthropic.com", credentials: { apiKey: "sk-ant-1" } },
    );
    expect(req).toEqual({
      method: "POST",
      url: "https://api.anthropic.com/v1/messages",
      headers: { "anthropic-version": "2023-06-01", "x-api-key": "sk-ant-1" },
      body: {
        model,
        max_tokens: 1024,
        system: "Be brief.",
        messages: [{ role: "user", content: "Hi" }],
        temperature: 0.3,
        stop_sequences: ["END"],
      },
    });
  });

  it("refuses what Anthropic cannot take: tool messages, only system messages, temperature above 1", () => {
    const ctx = { baseUrl: "https://x" };
    for (const input of [
      { model, messages: [{ role: "tool", content: "{}" }] },
      { model, messages: [{ role: "system", content: "x" }] },
      { model, messages: [{ role: "user", content: "x" }], temperature: 1.5 },
    ])
      expect(() => adapter.buildRequest("models.chat.complete", input, ctx)).toThrow(
        expect.objectContaining({ kind: "invalid_input", blame: "input" }),
      );
  });

  it("normalizes the message and maps {type: error, error: {type, message}}: 529 overloaded is retryable", () => {
    const body = {
      id: "msg_1",
      model,
      content: [{ type: "text", text: "Hello" }],
      stop_reason: "max_tokens",
      usage: { input_tokens: 5, output_tokens: 2 },
    };
    expect(adapter.parseResponse("models.chat.complete", response(200, body), {})).toEqual({
      status: "completed",
      providerMessageId: "msg_1",
      data: { completionText: "Hello", model, finishReason: "length", usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7 } },
      usage: { inputTokens: 5, outputTokens: 2 },
    });
    expect(() =>
      adapter.parseResponse(
        "models.chat.complete",
        response(529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
        {},
      ),
    ).toThrow(expect.objectContaining({ kind: "http_5xx", retryable: true, vendorCode: "overloaded_error" }));
  });

  it("completes over MPP through the sandbox and pays the seller", async () => {
    const { res, result } = await routes.execute("anthropic", "mpp", "models.chat.complete", {
      model,
      messages: [{ role: "user", content: "Say hi in five words." }],
      max_tokens: 64,
    });
    expect(res.payment).toMatchObject({ rail: "mpp", amountAtomic: "5000" });
    expect(result.data).toMatchObject({ completionText: "Sandbox reply to: Say hi in five words.", model, finishReason: "stop" });
  });

  it("gets the sandbox's 404 for a model Anthropic does not serve, as the caller's error", async () => {
    const err = await routes.executeError("anthropic", "direct", "models.chat.complete", {
      model: "gpt-4o",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(err).toMatchObject({ kind: "http_4xx", status: 404, blame: "input", vendorCode: "not_found_error" });
  });
});
