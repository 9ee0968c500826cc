// OpenAI moderation (text.moderate): POST {baseUrl}/moderations {model: omni-moderation-latest, input:
// [{type: "text", text}, {type: "image_url", image_url: {url}}?]} → {id, model, results: [{flagged,
// categories, category_scores}]}. Free at OpenAI.
import { InputReader } from "./input";
import type { CapabilityHandler } from "./provider-table";
import { invalidResponse, isRecord, stringField } from "./vendor-error";
import { openAiError } from "./openai-error";
import { bearerAuth } from "./vendor-key";

const MODERATION_MODEL = "omni-moderation-latest";

/** text.moderate as this vendor API speaks it, for `providerKey` (every OpenAI-compatible vendor). */
export function moderation(providerKey: string): CapabilityHandler {
  return {
    request(input, ctx) {
      const read = new InputReader(providerKey, input);
      const text = read.string("text", true);
      const imageUrl = read.string("imageUrl");
      return {
        method: "POST",
        url: `${ctx.baseUrl}/moderations`,
        headers: bearerAuth(ctx),
        body: {
          model: MODERATION_MODEL,
          input: [{ type: "text", text }, ...(imageUrl ? [{ type: "image_url", image_url: { url: imageUrl } }] : [])],
        },
      };
    },

    parse(res) {
      if (res.status !== 200) throw openAiError(providerKey, res);
      const result =
        isRecord(res.body) && Array.isArray(res.body.results) && isRecord(res.body.results[0]) ? res.body.results[0] : undefined;
      if (!result || typeof result.flagged !== "boolean" || !isRecord(result.categories) || !isRecord(result.category_scores))
        throw invalidResponse(providerKey, res, "without results[0] flagged, categories and category_scores");
      const categories = result.categories;
      const id = stringField(res.body, "id");
      return {
        status: "completed",
        ...(id ? { providerMessageId: id } : {}),
        data: {
          flagged: result.flagged,
          flaggedCategories: Object.keys(categories).filter((k) => categories[k] === true),
          categoryScores: Object.fromEntries(Object.entries(result.category_scores).filter(([, v]) => typeof v === "number")),
          model: stringField(res.body, "model") ?? null,
        },
      };
    },
  };
}
