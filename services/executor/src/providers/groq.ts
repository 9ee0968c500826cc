// Groq's API (models.chat.complete), OpenAI-compatible under /openai/v1; also sold per call through MPP hosts.
import { OpenAiCompatibleAdapter } from "./openai-compatible";
import type { ProviderModule } from "./provider-module";

export const groqProvider: ProviderModule = {
  providerKey: "groq",
  defaultBaseUrls: { direct: "https://api.groq.com/openai/v1" },
  create: () => new OpenAiCompatibleAdapter("groq"),
};
