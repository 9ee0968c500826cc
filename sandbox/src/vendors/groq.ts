// Groq's chat completions stand-in (the OpenAI-compatible format, Groq's open models).
import type { SandboxVendor } from "../http/vendor";
import { openAiCompatibleVendor } from "./openai-compatible";

export const groqSandbox = {
  key: "groq",
  apiKey: "gsk_sandbox_key",
  priceAtomic: "1000",
  create: (opts) => openAiCompatibleVendor({ key: "groq", models: ["llama-3.1-8b-instant", "llama-3.3-70b-versatile"], ...opts }),
} as const satisfies SandboxVendor;
