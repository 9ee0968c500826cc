// Groq's API (models.chat.complete), OpenAI-compatible under /openai/v1; also sold per call through MPP hosts.
import { chatCompletions } from "./openai-compatible";
import { defineProvider } from "./provider-table";

const KEY = "groq";

export const groqProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.groq.com/openai/v1" },
  capabilities: { "models.chat.complete": chatCompletions(KEY) },
});
