// DeepSeek's API (models.chat.complete), OpenAI-compatible; also sold per call through MPP hosts.
import { OpenAiCompatibleAdapter } from "./openai-compatible";
import type { ProviderModule } from "./provider-module";

export const deepseekProvider: ProviderModule = {
  providerKey: "deepseek",
  defaultBaseUrls: { direct: "https://api.deepseek.com" },
  create: () => new OpenAiCompatibleAdapter("deepseek"),
};
