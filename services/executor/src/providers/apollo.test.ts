import { X402_PAY_TO } from "@agentic/sandbox";
import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { apolloProvider } from "./apollo";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(apolloProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("Apollo adapter (enrichment.people.search)", () => {
  it("maps our filters to Apollo's api_search parameters", () => {
    const req = adapter.buildRequest(
      "enrichment.people.search",
      { keywords: "robotics", titles: ["CEO"], companyDomains: "acme.com", locations: ["Texas"], seniorities: ["c_suite"], perPage: 5 },
      { baseUrl: "https://api.apollo.io", credentials: { apiKey: "ap_1" } },
    );
    expect(req).toEqual({
      method: "POST",
      url: "https://api.apollo.io/api/v1/mixed_people/api_search",
      headers: { "X-Api-Key": "ap_1" },
      body: {
        q_keywords: "robotics",
        person_titles: ["CEO"],
        q_organization_domains_list: ["acme.com"],
        person_locations: ["Texas"],
        person_seniorities: ["c_suite"],
        page: 1,
        per_page: 5,
      },
    });
    expect(() => adapter.buildRequest("enrichment.people.search", { perPage: 500 }, { baseUrl: "https://x" })).toThrow(
      expect.objectContaining({ kind: "invalid_input" }),
    );
  });

  it("normalizes people and pagination; maps {error}", () => {
    const body = {
      people: [
        {
          id: "1",
          first_name: "Ada",
          last_name: "M",
          name: "Ada M",
          title: "CTO",
          city: "Paris",
          country: "France",
          organization: { name: "N", primary_domain: "n.example", website_url: "http://n.example" },
        },
      ],
      pagination: { page: 1, per_page: 10, total_entries: 1, total_pages: 1 },
    };
    const result = adapter.parseResponse("enrichment.people.search", response(200, body), {});
    expect(result.data).toEqual({
      people: [
        {
          id: "1",
          name: "Ada M",
          firstName: "Ada",
          lastName: "M",
          title: "CTO",
          headline: null,
          seniority: null,
          company: "N",
          companyDomain: "n.example",
          location: "Paris, France",
          linkedinUrl: null,
        },
      ],
      page: 1,
      perPage: 10,
      totalEntries: 1,
      totalPages: 1,
    });
    expect(() =>
      adapter.parseResponse("enrichment.people.search", response(422, { error: "per_page must be between 1 and 100" }), {}),
    ).toThrow(expect.objectContaining({ blame: "input", status: 422 }));
  });

  it("searches over x402 (agentcash) through the sandbox and pays the seller", async () => {
    const { res, result } = await routes.execute("apollo", "agentcash", "enrichment.people.search", {
      titles: ["engineer"],
      companyDomains: ["initech.example"],
    });
    expect(res.payment).toMatchObject({ rail: "x402", amountAtomic: "20000", payTo: X402_PAY_TO, settlement: "settled" });
    expect((result.data.people as Array<{ name: string }>).map((p) => p.name)).toEqual(["Eli Navarro", "Fatima Haddad"]);
    expect(result.data).toMatchObject({ page: 1, totalEntries: 2 });
  });
});

describe("Apollo adapter (enrichment.people.enrich, company.search, company.enrich)", () => {
  const ctx = { baseUrl: "https://api.apollo.io", credentials: { apiKey: "ap_1" } };

  it("builds people/match, mixed_companies/search and organizations/enrich requests", () => {
    expect(adapter.buildRequest("enrichment.people.enrich", { name: "Ada Moreau", companyDomain: "northwind.example" }, ctx)).toEqual({
      method: "POST",
      url: "https://api.apollo.io/api/v1/people/match",
      headers: { "X-Api-Key": "ap_1" },
      body: { name: "Ada Moreau", domain: "northwind.example", reveal_personal_emails: false },
    });
    expect(
      adapter.buildRequest(
        "enrichment.company.search",
        { keywords: "robotics", industries: ["saas"], employeeRanges: ["1,50"], locations: ["Spain"] },
        ctx,
      ),
    ).toEqual({
      method: "POST",
      url: "https://api.apollo.io/api/v1/mixed_companies/search",
      headers: { "X-Api-Key": "ap_1" },
      body: {
        q_organization_keyword_tags: ["robotics", "saas"],
        organization_num_employees_ranges: ["1,50"],
        organization_locations: ["Spain"],
        page: 1,
        per_page: 10,
      },
    });
    expect(adapter.buildRequest("enrichment.company.enrich", { domain: "stripe.com" }, { baseUrl: "https://x402.example" })).toEqual({
      method: "GET",
      url: "https://x402.example/api/v1/organizations/enrich?domain=stripe.com",
      headers: {},
    });
    expect(() => adapter.buildRequest("enrichment.company.enrich", {}, ctx)).toThrow(expect.objectContaining({ kind: "invalid_input" }));
  });

  it("says when nothing matched, and refuses answers without the documented object", () => {
    expect(adapter.parseResponse("enrichment.people.enrich", response(200, { person: null }), {}).data).toEqual({
      matched: false,
      person: null,
    });
    expect(adapter.parseResponse("enrichment.company.enrich", response(200, {}), {}).data).toEqual({ matched: false, organization: null });
    expect(() => adapter.parseResponse("enrichment.people.enrich", response(200, { people: [] }), {})).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
    expect(() => adapter.parseResponse("enrichment.company.search", response(200, { people: [] }), {})).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
    expect(() => adapter.parseResponse("enrichment.company.enrich", response(401, { error: "Invalid access credentials." }), {})).toThrow(
      expect.objectContaining({ blame: "provider", status: 401 }),
    );
  });

  it("enriches a person by email over x402, paying the enrichment price", async () => {
    const { res, result } = await routes.execute("apollo", "agentcash", "enrichment.people.enrich", {
      email: "Ada.Moreau@northwind.example",
    });
    expect(res.payment).toMatchObject({ rail: "x402", amountAtomic: "49500", settlement: "settled" });
    expect(result.data).toMatchObject({
      matched: true,
      person: { name: "Ada Moreau", title: "VP of Engineering", company: "Northwind Labs", email: "ada.moreau@northwind.example" },
    });
    expect((result.data.person as { employmentHistory: unknown[] }).employmentHistory).toHaveLength(2);
  });

  it("matches a person by name and company domain on the direct API, and reports no match", async () => {
    const { result } = await routes.execute("apollo", "direct", "enrichment.people.enrich", {
      name: "Chen Wei",
      companyDomain: "globex.example",
    });
    expect(result.data).toMatchObject({ matched: true, person: { title: "Head of Sales" } });
    const none = await routes.execute("apollo", "direct", "enrichment.people.enrich", {
      name: "Chen Wei",
      companyDomain: "initech.example",
    });
    expect(none.result.data).toEqual({ matched: false, person: null });
  });

  it("searches companies by keyword tags and headcount over x402", async () => {
    const { res, result } = await routes.execute("apollo", "agentcash", "enrichment.company.search", {
      industries: ["saas"],
      employeeRanges: ["51,1000"],
    });
    expect(res.payment).toMatchObject({ rail: "x402", amountAtomic: "20000", settlement: "settled" });
    expect((result.data.companies as Array<{ name: string }>).map((c) => c.name)).toEqual(["Northwind Labs", "Globex Analytics"]);
    expect(result.data).toMatchObject({ page: 1, totalEntries: 2 });
  });

  it("refuses a malformed headcount range as the caller's error", async () => {
    const err = await routes.executeError("apollo", "agentcash", "enrichment.company.search", { employeeRanges: ["fifty"] });
    expect(err).toMatchObject({ kind: "http_4xx", status: 422, blame: "input" });
  });

  it("enriches a company by domain over x402; an unknown domain is no match", async () => {
    const { res, result } = await routes.execute("apollo", "agentcash", "enrichment.company.enrich", { domain: "northwind.example" });
    expect(res.payment).toMatchObject({ rail: "x402", amountAtomic: "49500" });
    expect(result.data).toMatchObject({
      matched: true,
      organization: { name: "Northwind Labs", employees: 180, industry: "computer software", technologies: ["AWS", "React", "Stripe"] },
    });
    const none = await routes.execute("apollo", "agentcash", "enrichment.company.enrich", { domain: "nowhere.example" });
    expect(none.result.data).toEqual({ matched: false, organization: null });
  });
});
