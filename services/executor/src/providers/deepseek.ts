// DeepSeek's API (models.chat.complete), OpenAI-compatible; also sold per call through MPP hosts.
import { chatCompletions } from "./openai-compatible";
import { defineProvider } from "./provider-table";

const KEY = "deepseek";

export const deepseekProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.deepseek.com" },
  capabilities: { "models.chat.complete": chatCompletions(KEY) },
});
