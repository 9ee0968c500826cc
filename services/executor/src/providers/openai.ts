// OpenAI's own API (models.chat.complete), spoken by the OpenAI-compatible adapter.
import { OpenAiCompatibleAdapter } from "./openai-compatible";
import type { ProviderModule } from "./provider-module";

export const openaiProvider: ProviderModule = {
  providerKey: "openai",
  defaultBaseUrls: { direct: "https://api.openai.com/v1" },
  create: () => new OpenAiCompatibleAdapter("openai"),
};
