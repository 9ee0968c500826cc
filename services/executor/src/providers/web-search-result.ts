// search.web's answer as every vendor that lists `results` gives it: the hits with a URL, in the vendor's
// order, each as {title, url, snippet, publishedAt}, under the vendor's request id.
import type { RailResponse } from "../domain/rail-port";
import type { ProviderResult } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField } from "./vendor-error";

/** Where a vendor keeps what a hit needs: its request id's field, its date's field and how to read a snippet. */
export interface WebHitFields {
  requestId: string;
  publishedAt: string;
  snippet(hit: Record<string, unknown>): string | null;
}

export function webSearchResult(providerKey: string, res: RailResponse, fields: WebHitFields): ProviderResult {
  const results = isRecord(res.body) && Array.isArray(res.body.results) ? res.body.results.filter(isRecord) : undefined;
  if (!results) throw invalidResponse(providerKey, res, "without results");
  const requestId = stringField(res.body, fields.requestId);
  return {
    status: "completed",
    ...(requestId ? { providerMessageId: requestId } : {}),
    data: {
      results: results
        .filter((r) => typeof r.url === "string")
        .map((r) => ({
          title: stringField(r, "title") ?? null,
          url: r.url,
          snippet: fields.snippet(r),
          publishedAt: stringField(r, fields.publishedAt) ?? null,
        })),
    },
  };
}
