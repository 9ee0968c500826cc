// Apollo, on its API (`X-Api-Key` on direct routes) or its x402 host:
// - enrichment.people.search: POST /api/v1/mixed_people/api_search with its filters → {people[], pagination};
// - enrichment.people.enrich: POST /api/v1/people/match {email | linkedin_url | name, domain} → {person} (null: no match);
// - enrichment.company.search: POST /api/v1/mixed_companies/search with its filters → {organizations[], pagination};
// - enrichment.company.enrich: GET /api/v1/organizations/enrich?domain= → {organization} ({} when unknown).
// Errors {error} or {message}.
import type { RailResponse } from "../domain/rail-port";
import { InputReader } from "./input";
import type { ProviderContext, ProviderResult } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";

const KEY = "apollo";

const num = (v: unknown) => (typeof v === "number" ? v : null);
const str = (v: unknown, key: string) => stringField(v, key) ?? null;

function place(p: Record<string, unknown>): string | null {
  return [stringField(p, "city"), stringField(p, "state"), stringField(p, "country")].filter(Boolean).join(", ") || null;
}

function searchedPerson(p: Record<string, unknown>) {
  const org = isRecord(p.organization) ? p.organization : {};
  return {
    id: str(p, "id"),
    name: stringField(p, "name") ?? ([stringField(p, "first_name"), stringField(p, "last_name")].filter(Boolean).join(" ") || null),
    firstName: str(p, "first_name"),
    lastName: str(p, "last_name"),
    title: str(p, "title"),
    headline: str(p, "headline"),
    seniority: str(p, "seniority"),
    company: str(org, "name"),
    companyDomain: str(org, "primary_domain"),
    location: place(p),
    linkedinUrl: str(p, "linkedin_url"),
  };
}

function person(p: Record<string, unknown>) {
  const history = Array.isArray(p.employment_history) ? p.employment_history.filter(isRecord) : [];
  return {
    ...searchedPerson(p),
    email: str(p, "email"),
    emailStatus: str(p, "email_status"),
    twitterUrl: str(p, "twitter_url"),
    employmentHistory: history.map((e) => ({
      company: str(e, "organization_name"),
      title: str(e, "title"),
      startDate: str(e, "start_date"),
      endDate: str(e, "end_date"),
      current: typeof e.current === "boolean" ? e.current : null,
    })),
  };
}

function organization(o: Record<string, unknown>) {
  return {
    id: str(o, "id"),
    name: str(o, "name"),
    domain: str(o, "primary_domain"),
    websiteUrl: str(o, "website_url"),
    linkedinUrl: str(o, "linkedin_url"),
    industry: str(o, "industry"),
    employees: num(o.estimated_num_employees),
    foundedYear: num(o.founded_year),
    location: place(o),
    description: str(o, "short_description"),
    totalFunding: num(o.total_funding),
    latestFundingStage: str(o, "latest_funding_stage"),
    technologies: Array.isArray(o.technology_names) ? o.technology_names.filter((t) => typeof t === "string") : [],
  };
}

const auth = (ctx: ProviderContext) => ourKeyAs(ctx, "X-Api-Key");

/** The answer's JSON object, once Apollo answered 200. */
function bodyOf(res: RailResponse): Record<string, unknown> {
  if (res.status !== 200)
    throw vendorError(KEY, res, {
      code: stringField(res.body, "error_code"),
      message: stringField(res.body, "error") ?? stringField(res.body, "message"),
    });
  if (!isRecord(res.body)) throw invalidResponse(KEY, res, "without a JSON object");
  return res.body;
}

/** The paging and locations both searches take. */
function searchInput(read: InputReader): { page: number; perPage: number; locations: string[] } {
  const page = read.number("page", { integer: true, min: 1 });
  const perPage = read.number("perPage", { integer: true, min: 1, max: 100 });
  return { page: page ?? 1, perPage: perPage ?? 10, locations: read.strings("locations") };
}

/** A search answer: its list under `listKey`, mapped, with Apollo's pagination. */
function searchResult(res: RailResponse, listKey: "people" | "organizations"): ProviderResult {
  const body = bodyOf(res);
  const list = Array.isArray(body[listKey]) ? (body[listKey] as unknown[]).filter(isRecord) : undefined;
  if (!list) throw invalidResponse(KEY, res, `without ${listKey}`);
  const pagination = isRecord(body.pagination) ? body.pagination : {};
  return {
    status: "completed",
    data: {
      ...(listKey === "people" ? { people: list.map(searchedPerson) } : { companies: list.map(organization) }),
      page: num(pagination.page),
      perPage: num(pagination.per_page),
      totalEntries: num(pagination.total_entries),
      totalPages: num(pagination.total_pages),
    },
  };
}

export const apolloProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.apollo.io" },
  capabilities: {
    "enrichment.people.search": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const { page, perPage, locations } = searchInput(read);
        const keywords = read.string("keywords");
        const titles = read.strings("titles");
        const domains = read.strings("companyDomains");
        const seniorities = read.strings("seniorities");
        return {
          method: "POST",
          url: `${ctx.baseUrl}/api/v1/mixed_people/api_search`,
          headers: auth(ctx),
          body: {
            ...(keywords ? { q_keywords: keywords } : {}),
            ...(titles.length ? { person_titles: titles } : {}),
            ...(domains.length ? { q_organization_domains_list: domains } : {}),
            ...(locations.length ? { person_locations: locations } : {}),
            ...(seniorities.length ? { person_seniorities: seniorities } : {}),
            page,
            per_page: perPage,
          },
        };
      },
      parse: (res) => searchResult(res, "people"),
    },
    "enrichment.people.enrich": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const email = read.string("email");
        const linkedinUrl = read.string("linkedinUrl");
        const name = read.string("name");
        const domain = read.string("companyDomain");
        return {
          method: "POST",
          url: `${ctx.baseUrl}/api/v1/people/match`,
          headers: auth(ctx),
          body: {
            ...(email ? { email } : {}),
            ...(linkedinUrl ? { linkedin_url: linkedinUrl } : {}),
            ...(name ? { name } : {}),
            ...(domain ? { domain } : {}),
            reveal_personal_emails: false,
          },
        };
      },
      parse(res) {
        const body = bodyOf(res);
        if (!("person" in body) || (body.person !== null && !isRecord(body.person))) throw invalidResponse(KEY, res, "without person");
        return { status: "completed", data: { matched: body.person !== null, person: body.person ? person(body.person) : null } };
      },
    },
    "enrichment.company.search": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const { page, perPage, locations } = searchInput(read);
        const keywords = read.string("keywords");
        // Apollo filters industries and keywords through the same organization keyword tags.
        const tags = [...(keywords ? [keywords] : []), ...read.strings("industries")];
        const ranges = read.strings("employeeRanges");
        return {
          method: "POST",
          url: `${ctx.baseUrl}/api/v1/mixed_companies/search`,
          headers: auth(ctx),
          body: {
            ...(tags.length ? { q_organization_keyword_tags: tags } : {}),
            ...(ranges.length ? { organization_num_employees_ranges: ranges } : {}),
            ...(locations.length ? { organization_locations: locations } : {}),
            page,
            per_page: perPage,
          },
        };
      },
      parse: (res) => searchResult(res, "organizations"),
    },
    "enrichment.company.enrich": {
      request(input, ctx) {
        const domain = new InputReader(KEY, input).string("domain", true);
        return { method: "GET", url: `${ctx.baseUrl}/api/v1/organizations/enrich?${new URLSearchParams({ domain })}`, headers: auth(ctx) };
      },
      parse(res) {
        const body = bodyOf(res);
        // Apollo answers an unknown domain with an empty object.
        if (body.organization !== undefined && !isRecord(body.organization)) throw invalidResponse(KEY, res, "without organization");
        const org = body.organization;
        return { status: "completed", data: { matched: org !== undefined, organization: org ? organization(org) : null } };
      },
    },
  },
});
