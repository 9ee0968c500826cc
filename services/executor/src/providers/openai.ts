// OpenAI's own API: models.chat.complete (the OpenAI-compatible adapter), models.embeddings.create,
// text.moderate, media.image.generate and speech.synthesize, each spoken by its own adapter behind the
// one `openai` provider.
import { CapabilityDispatchAdapter } from "./capability-dispatch";
import { OpenAiCompatibleAdapter } from "./openai-compatible";
import { OpenAiEmbeddingsAdapter } from "./openai-embeddings";
import { OpenAiImagesAdapter } from "./openai-images";
import { OpenAiModerationAdapter } from "./openai-moderation";
import { OpenAiSpeechAdapter } from "./openai-speech";
import type { ProviderModule } from "./provider-module";

export const openaiProvider: ProviderModule = {
  providerKey: "openai",
  defaultBaseUrls: { direct: "https://api.openai.com/v1" },
  create: () =>
    new CapabilityDispatchAdapter("openai", [
      new OpenAiCompatibleAdapter("openai"),
      new OpenAiEmbeddingsAdapter("openai", "text-embedding-3-small"),
      new OpenAiModerationAdapter("openai"),
      new OpenAiImagesAdapter("openai"),
      new OpenAiSpeechAdapter("openai"),
    ]),
};
