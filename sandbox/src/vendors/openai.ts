// OpenAI's chat completions stand-in (the OpenAI-compatible format, OpenAI's models).
import type { SandboxVendor } from "../http/vendor";
import { openAiCompatibleVendor } from "./openai-compatible";

export const openaiSandbox = {
  key: "openai",
  apiKey: "sk-sandbox-key",
  priceAtomic: "1000",
  create: (opts) => openAiCompatibleVendor({ key: "openai", models: ["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini", "gpt-4.1"], ...opts }),
} as const satisfies SandboxVendor;
