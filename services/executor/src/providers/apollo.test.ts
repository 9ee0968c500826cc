import { X402_PAY_TO } from "@agentic/sandbox";
import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { ApolloAdapter } from "./apollo";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = new ApolloAdapter();
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
