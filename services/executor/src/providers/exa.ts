// Exa (search.answer): POST /answer {query} (`x-api-key` on direct routes); 200 {answer, citations[],
// requestId}; errors {requestId, error, tag}. `maxResults` trims the citations. The request carries no
// domain filter yet, so `includeDomains`/`excludeDomains` are refused (invalid_input, which makes the
// executor skip this route) rather than dropped: a search must not use the domains it was told to exclude.
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { InputReader } from "./input";
import {
  ProviderError,
  type CapabilityInput,
  type ProviderAdapter,
  type ProviderContext,
  type ProviderResult,
} from "../domain/provider-port";
import { assertCapability } from "./provider";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import type { ProviderModule } from "./provider-module";

/** Contract fields of search.answer this adapter does not send yet. */
const UNSUPPORTED_FIELDS = ["includeDomains", "excludeDomains"] as const;

export class ExaAdapter implements ProviderAdapter {
  readonly providerKey = "exa";
  readonly capabilityKeys = ["search.answer"] as const;

  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
    assertCapability(this, capabilityKey);
    const read = new InputReader(this.providerKey, input);
    const query = read.string("query", true);
    read.number("maxResults", { integer: true, min: 1, max: 100 });
    for (const field of UNSUPPORTED_FIELDS) {
      if (input[field] !== undefined && input[field] !== null) {
        throw new ProviderError("invalid_input", this.providerKey, "not supported by the exa route yet", { blame: "input", field });
      }
    }
    return {
      method: "POST",
      url: `${ctx.baseUrl}/answer`,
      headers: ctx.credentials ? { "x-api-key": ctx.credentials.apiKey } : {},
      body: { query, text: false },
    };
  }

  parseResponse(capabilityKey: string, res: RailResponse, input: CapabilityInput): ProviderResult {
    assertCapability(this, capabilityKey);
    if (res.status !== 200)
      throw vendorError(this.providerKey, res, { code: stringField(res.body, "tag"), message: stringField(res.body, "error") });
    const answer = stringField(res.body, "answer");
    const citations = isRecord(res.body) && Array.isArray(res.body.citations) ? res.body.citations.filter(isRecord) : undefined;
    if (answer === undefined || !citations) throw invalidResponse(this.providerKey, res, "without answer and citations");
    const max = new InputReader(this.providerKey, input).number("maxResults", { integer: true, min: 1 }) ?? citations.length;
    const requestId = stringField(res.body, "requestId");
    return {
      status: "completed",
      ...(requestId ? { providerMessageId: requestId } : {}),
      data: {
        answer,
        citations: citations.slice(0, max).map((c) => ({
          url: stringField(c, "url") ?? null,
          title: stringField(c, "title") ?? null,
          author: stringField(c, "author") ?? null,
          publishedDate: stringField(c, "publishedDate") ?? null,
          ...(stringField(c, "text") ? { snippet: stringField(c, "text") } : {}),
        })),
      },
    };
  }
}

export const exaProvider: ProviderModule = {
  providerKey: "exa",
  defaultBaseUrls: { direct: "https://api.exa.ai" },
  create: () => new ExaAdapter(),
};
