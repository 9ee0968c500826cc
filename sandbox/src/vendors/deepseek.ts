// DeepSeek's chat completions stand-in (the OpenAI-compatible format, DeepSeek's models).
import type { SandboxVendor } from "../http/vendor";
import { openAiCompatibleVendor } from "./openai-compatible";

export const deepseekSandbox = {
  key: "deepseek",
  apiKey: "sk-deepseek-sandbox-key",
  priceAtomic: "2000",
  create: (opts) => openAiCompatibleVendor({ key: "deepseek", models: ["deepseek-chat", "deepseek-reasoner"], ...opts }),
} as const satisfies SandboxVendor;
