// OpenAI's stand-in: chat completions (the OpenAI-compatible format, OpenAI's models), embeddings, moderations,
// image generation and text to speech.
import type { SandboxVendor } from "../http/vendor";
import { openAiCompatibleVendor } from "./openai-compatible";
import { embeddingRoutes } from "./openai-embeddings";
import { imageRoutes } from "./openai-images";
import { moderationRoutes } from "./openai-moderations";
import { speechRoutes } from "./openai-speech";

export const openaiSandbox = {
  key: "openai",
  apiKey: "sk-sandbox-key",
  priceAtomic: "1000",
  create: (opts) => {
    const chat = openAiCompatibleVendor({ key: "openai", models: ["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini", "gpt-4.1"], ...opts });
    return { ...chat, routes: [...chat.routes, ...embeddingRoutes, ...moderationRoutes, ...imageRoutes, ...speechRoutes] };
  },
} as const satisfies SandboxVendor;
