// Apollo (enrichment.people.search): POST /api/v1/mixed_people/api_search with its filters
// (`X-Api-Key` on direct routes); 200 {people[], pagination}; errors {error} or {message}.
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { InputReader } from "./input";
import type { CapabilityInput, ProviderAdapter, ProviderContext, ProviderResult } from "../domain/provider-port";
import { assertCapability } from "./provider";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import type { ProviderModule } from "./provider-module";

export class ApolloAdapter implements ProviderAdapter {
  readonly providerKey = "apollo";
  readonly capabilityKeys = ["enrichment.people.search"] as const;

  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
    assertCapability(this, capabilityKey);
    const read = new InputReader(this.providerKey, input);
    const keywords = read.string("keywords");
    const titles = read.strings("titles");
    const domains = read.strings("companyDomains");
    const locations = read.strings("locations");
    const seniorities = read.strings("seniorities");
    const page = read.number("page", { integer: true, min: 1 });
    const perPage = read.number("perPage", { integer: true, min: 1, max: 100 });
    return {
      method: "POST",
      url: `${ctx.baseUrl}/api/v1/mixed_people/api_search`,
      headers: ctx.credentials ? { "X-Api-Key": ctx.credentials.apiKey } : {},
      body: {
        ...(keywords ? { q_keywords: keywords } : {}),
        ...(titles.length ? { person_titles: titles } : {}),
        ...(domains.length ? { q_organization_domains_list: domains } : {}),
        ...(locations.length ? { person_locations: locations } : {}),
        ...(seniorities.length ? { person_seniorities: seniorities } : {}),
        page: page ?? 1,
        per_page: perPage ?? 10,
      },
    };
  }

  parseResponse(capabilityKey: string, res: RailResponse): ProviderResult {
    assertCapability(this, capabilityKey);
    if (res.status !== 200)
      throw vendorError(this.providerKey, res, {
        code: stringField(res.body, "error_code"),
        message: stringField(res.body, "error") ?? stringField(res.body, "message"),
      });
    const people = isRecord(res.body) && Array.isArray(res.body.people) ? res.body.people.filter(isRecord) : undefined;
    if (!people) throw invalidResponse(this.providerKey, res, "without people");
    const pagination = isRecord(res.body) && isRecord(res.body.pagination) ? res.body.pagination : {};
    const num = (v: unknown) => (typeof v === "number" ? v : null);
    return {
      status: "completed",
      data: {
        people: people.map((p) => {
          const org = isRecord(p.organization) ? p.organization : {};
          const location = [stringField(p, "city"), stringField(p, "state"), stringField(p, "country")].filter(Boolean).join(", ");
          return {
            id: stringField(p, "id") ?? null,
            name: stringField(p, "name") ?? ([stringField(p, "first_name"), stringField(p, "last_name")].filter(Boolean).join(" ") || null),
            firstName: stringField(p, "first_name") ?? null,
            lastName: stringField(p, "last_name") ?? null,
            title: stringField(p, "title") ?? null,
            headline: stringField(p, "headline") ?? null,
            seniority: stringField(p, "seniority") ?? null,
            company: stringField(org, "name") ?? null,
            companyDomain: stringField(org, "primary_domain") ?? null,
            location: location || null,
            linkedinUrl: stringField(p, "linkedin_url") ?? null,
          };
        }),
        page: num(pagination.page),
        perPage: num(pagination.per_page),
        totalEntries: num(pagination.total_entries),
        totalPages: num(pagination.total_pages),
      },
    };
  }
}

export const apolloProvider: ProviderModule = {
  providerKey: "apollo",
  defaultBaseUrls: { direct: "https://api.apollo.io" },
  create: () => new ApolloAdapter(),
};
