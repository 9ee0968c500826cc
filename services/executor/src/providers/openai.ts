// OpenAI's own API: models.chat.complete, models.embeddings.create, text.moderate, media.image.generate
// and speech.synthesize, one table whose handlers are the OpenAI-compatible ones of each capability.
import { chatCompletions } from "./openai-compatible";
import { embeddings } from "./openai-embeddings";
import { imageGeneration } from "./openai-images";
import { moderation } from "./openai-moderation";
import { speech } from "./openai-speech";
import { defineProvider } from "./provider-table";

const KEY = "openai";

export const openaiProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.openai.com/v1" },
  capabilities: {
    "models.chat.complete": chatCompletions(KEY),
    "models.embeddings.create": embeddings(KEY, "text-embedding-3-small"),
    "text.moderate": moderation(KEY),
    "media.image.generate": imageGeneration(KEY),
    "speech.synthesize": speech(KEY),
  },
});
