import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();

describe("Groq (models.chat.complete through the OpenAI-compatible adapter)", () => {
  it("completes over MPP through the sandbox and pays the seller", async () => {
    const { res, result } = await routes.execute("groq", "mpp", "models.chat.complete", {
      model: "llama-3.1-8b-instant",
      messages: [{ role: "user", content: "Say hi in five words." }],
      max_tokens: 64,
    });
    expect(res.payment).toMatchObject({ rail: "mpp", amountAtomic: "1000" });
    expect(result.data).toMatchObject({
      completionText: "Sandbox reply to: Say hi in five words.",
      model: "llama-3.1-8b-instant",
      finishReason: "stop",
    });
  });

  it("completes on the direct API with our key, and refuses a model Groq does not serve as the caller's error", async () => {
    const { result } = await routes.execute("groq", "direct", "models.chat.complete", {
      model: "llama-3.3-70b-versatile",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(result.usage).toEqual({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
    const err = await routes.executeError("groq", "direct", "models.chat.complete", {
      model: "gpt-4o",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(err).toMatchObject({ kind: "http_4xx", status: 404, blame: "input", vendorCode: "model_not_found" });
  });
});
