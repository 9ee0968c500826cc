// Firecrawl v2 (web.extract): POST /v2/scrape {url, formats: [{type: "json", schema, prompt?}]}, the
// schema being the caller's or one string property per requested field; 200 {success: true, data:
// {json}}; errors {success: false, error}. The result holds exactly the schema's fields (null when the
// page did not yield one).
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

export class FirecrawlAdapter implements ProviderAdapter {
  readonly providerKey = "firecrawl";
  readonly capabilityKeys = ["web.extract"] as const;

  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
    assertCapability(this, capabilityKey);
    const read = new InputReader(this.providerKey, input);
    const url = read.string("url", true);
    const schema = this.schema(input);
    const prompt = read.string("prompt");
    return {
      method: "POST",
      url: `${ctx.baseUrl}/v2/scrape`,
      headers: ctx.credentials ? { Authorization: `Bearer ${ctx.credentials.apiKey}` } : {},
      body: {
        url,
        formats: [{ type: "json", schema, ...(prompt ? { prompt } : {}) }],
        onlyMainContent: true,
      },
    };
  }

  parseResponse(capabilityKey: string, res: RailResponse, input: CapabilityInput): ProviderResult {
    assertCapability(this, capabilityKey);
    if (res.status !== 200) throw vendorError(this.providerKey, res, { message: stringField(res.body, "error") });
    const data = isRecord(res.body) && res.body.success === true && isRecord(res.body.data) ? res.body.data : undefined;
    const json = data && isRecord(data.json) ? data.json : undefined;
    if (!json) throw invalidResponse(this.providerKey, res, "without extracted json");
    const fields = Object.keys(this.schema(input).properties);
    return { status: "completed", data: Object.fromEntries(fields.map((f) => [f, json[f] ?? null])) };
  }

  /** The caller's JSON schema (an object with properties), else one string property per field in `fields`. */
  private schema(input: CapabilityInput): { type: "object"; properties: Record<string, unknown> } {
    const read = new InputReader(this.providerKey, input);
    const given = read.raw("schema");
    if (given !== undefined) {
      if (!isRecord(given) || !isRecord(given.properties) || Object.keys(given.properties).length === 0) {
        throw new ProviderError("invalid_input", this.providerKey, "`schema` must be a JSON schema object with properties", {
          blame: "input",
        });
      }
      return { ...given, type: "object", properties: given.properties };
    }
    const fields = read.strings("fields");
    if (fields.length === 0) throw new ProviderError("invalid_input", this.providerKey, "give `fields` or `schema`", { blame: "input" });
    return { type: "object", properties: Object.fromEntries(fields.map((f) => [f, { type: "string" }])) };
  }
}

export const firecrawlProvider: ProviderModule = {
  providerKey: "firecrawl",
  defaultBaseUrls: { direct: "https://api.firecrawl.dev" },
  create: () => new FirecrawlAdapter(),
};
