// OpenAI-compatible embeddings (models.embeddings.create): POST {baseUrl}/embeddings {input[], model,
// dimensions?, encoding_format: "float"} → {data: [{index, embedding[]}], model, usage}. A call is sold
// at one price, so the texts of one call are capped (MAX_INPUT_BYTES): a token is at least one UTF-8
// byte, which bounds what the vendor can bill us for it.
import { InputReader } from "./input";
import { ProviderError } from "../domain/provider-port";
import type { CapabilityHandler } from "./provider-table";
import { invalidResponse, isRecord, stringField } from "./vendor-error";
import { openAiError } from "./openai-error";
import { bearerAuth } from "./vendor-key";

/** UTF-8 bytes of all texts of one call: at most this many tokens, whatever the text. */
export const MAX_INPUT_BYTES = 200_000;

/** models.embeddings.create as this vendor API speaks it, for `providerKey` (every OpenAI-compatible vendor). */
export function embeddings(providerKey: string, defaultModel: string): CapabilityHandler {
  return {
    request(input, ctx) {
      const read = new InputReader(providerKey, input);
      const texts = read.strings("input", true);
      const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t, "utf8"), 0);
      if (bytes > MAX_INPUT_BYTES)
        throw new ProviderError("invalid_input", providerKey, `the texts of one call must total at most ${MAX_INPUT_BYTES} UTF-8 bytes`, {
          blame: "input",
          field: "input",
        });
      const dimensions = read.number("dimensions", { integer: true, min: 1 });
      return {
        method: "POST",
        url: `${ctx.baseUrl}/embeddings`,
        headers: bearerAuth(ctx),
        body: {
          input: texts,
          model: read.string("model") ?? defaultModel,
          ...(dimensions !== undefined ? { dimensions } : {}),
          encoding_format: "float",
        },
      };
    },

    parse(res) {
      if (res.status !== 200) throw openAiError(providerKey, res);
      const data = isRecord(res.body) && Array.isArray(res.body.data) ? res.body.data : undefined;
      const vectors = data?.map((d) =>
        isRecord(d) && Array.isArray(d.embedding) && d.embedding.every((x) => typeof x === "number") ? d : undefined,
      );
      if (!vectors || vectors.some((v) => v === undefined)) throw invalidResponse(providerKey, res, "without data[].embedding");
      const usage = isRecord(res.body) && isRecord(res.body.usage) ? res.body.usage : {};
      const sorted = (vectors as Array<Record<string, unknown>>).slice().sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0));
      return {
        status: "completed",
        data: {
          model: stringField(res.body, "model") ?? null,
          embeddings: sorted.map((v) => v.embedding as number[]),
          dimensions: (sorted[0]?.embedding as number[] | undefined)?.length ?? 0,
          usage: { promptTokens: typeof usage.prompt_tokens === "number" ? usage.prompt_tokens : null },
        },
      };
    },
  };
}
