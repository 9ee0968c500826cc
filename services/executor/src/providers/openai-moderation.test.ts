import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { openaiProvider } from "./openai";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(openaiProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("OpenAI moderation adapter (text.moderate)", () => {
  it("builds POST {baseUrl}/moderations with omni-moderation and typed input parts", () => {
    expect(
      adapter.buildRequest(
        "text.moderate",
        { text: "hi", imageUrl: "https://img.example/a.png" },
        { baseUrl: "https://api.openai.com/v1", credentials: { apiKey: "sk-1" } },
      ),
    ).toEqual({
      method: "POST",
      url: "https://api.openai.com/v1/moderations",
      headers: { Authorization: "Bearer sk-1" },
      body: {
        model: "omni-moderation-latest",
        input: [
          { type: "text", text: "hi" },
          { type: "image_url", image_url: { url: "https://img.example/a.png" } },
        ],
      },
    });
  });

  it("lists the flagged categories, refuses answers without results and maps errors", () => {
    const body = {
      id: "modr-1",
      model: "omni",
      results: [{ flagged: true, categories: { hate: false, violence: true }, category_scores: { hate: 0.01, violence: 0.9 } }],
    };
    expect(adapter.parseResponse("text.moderate", response(200, body), {})).toEqual({
      status: "completed",
      providerMessageId: "modr-1",
      data: { flagged: true, flaggedCategories: ["violence"], categoryScores: { hate: 0.01, violence: 0.9 }, model: "omni" },
    });
    expect(() => adapter.parseResponse("text.moderate", response(200, { results: [] }), {})).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
    expect(() => adapter.parseResponse("text.moderate", response(429, { error: { message: "slow down", type: "requests" } }), {})).toThrow(
      expect.objectContaining({ retryable: true, blame: "provider" }),
    );
  });

  it("moderates on the sandbox: harmless text passes, a violent one is flagged", async () => {
    const calm = await routes.execute("openai", "direct", "text.moderate", { text: "What a lovely morning for a walk." });
    expect(calm.result.data).toMatchObject({ flagged: false, flaggedCategories: [] });
    const violent = await routes.execute("openai", "direct", "text.moderate", { text: "I will attack them tonight." });
    expect(violent.result.data).toMatchObject({ flagged: true, flaggedCategories: ["violence"], model: "omni-moderation-2024-09-26" });
    expect(Object.keys(violent.result.data.categoryScores as object)).toContain("self-harm/intent");
  });

  it("still completes chat on the same openai provider (one adapter per capability behind it)", async () => {
    const { result } = await routes.execute("openai", "direct", "models.chat.complete", {
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(result.data.completionText).toBe("Sandbox reply to: hi");
    expect(routes.registry().get("openai", "direct")?.adapter.capabilityKeys).toEqual(
      expect.arrayContaining(["models.chat.complete", "models.embeddings.create", "text.moderate"]),
    );
  });
});
