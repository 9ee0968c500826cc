// OpenAI moderation (text.moderate): POST {baseUrl}/moderations {model: omni-moderation-latest, input:
// [{type: "text", text}, {type: "image_url", image_url: {url}}?]} → {id, model, results: [{flagged,
// categories, category_scores}]}. Free at OpenAI.
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { InputReader } from "./input";
import type { CapabilityInput, ProviderAdapter, ProviderContext, ProviderResult } from "../domain/provider-port";
import { assertCapability } from "./provider";
import { invalidResponse, isRecord, stringField } from "./vendor-error";
import { openAiError } from "./openai-error";
import { bearerAuth } from "./bearer-auth";

export const MODERATION_MODEL = "omni-moderation-latest";

export class OpenAiModerationAdapter implements ProviderAdapter {
  readonly capabilityKeys = ["text.moderate"] as const;

  constructor(readonly providerKey: string) {}

  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
    assertCapability(this, capabilityKey);
    const read = new InputReader(this.providerKey, input);
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
  }

  parseResponse(capabilityKey: string, res: RailResponse): ProviderResult {
    assertCapability(this, capabilityKey);
    if (res.status !== 200) throw openAiError(this.providerKey, res);
    const result = isRecord(res.body) && Array.isArray(res.body.results) && isRecord(res.body.results[0]) ? res.body.results[0] : undefined;
    if (!result || typeof result.flagged !== "boolean" || !isRecord(result.categories) || !isRecord(result.category_scores))
      throw invalidResponse(this.providerKey, res, "without results[0] flagged, categories and category_scores");
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
  }
}
