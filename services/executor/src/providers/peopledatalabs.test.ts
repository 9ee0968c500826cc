import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { peopledatalabsProvider } from "./peopledatalabs";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(peopledatalabsProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const ctx = { baseUrl: "https://api.peopledatalabs.com", credentials: { apiKey: "pdl_1" } };

describe("People Data Labs adapter (enrichment.people.enrich, enrichment.company.enrich)", () => {
  it("asks the v5 enrich endpoints with X-Api-Key, a minimum likelihood and title-cased values", () => {
    expect(adapter.buildRequest("enrichment.people.enrich", { name: "Ada Moreau", companyDomain: "northwind.example" }, ctx)).toEqual({
      method: "GET",
      url: "https://api.peopledatalabs.com/v5/person/enrich?name=Ada+Moreau&company=northwind.example&min_likelihood=6&titlecase=true",
      headers: { "X-Api-Key": "pdl_1" },
    });
    expect(adapter.buildRequest("enrichment.company.enrich", { domain: "stripe.com" }, ctx).url).toBe(
      "https://api.peopledatalabs.com/v5/company/enrich?website=stripe.com&min_likelihood=6&titlecase=true",
    );
  });

  it("makes PDL's 404 no-match the caller's answer (nothing charged), 402 our account's, and refuses answers without data", () => {
    const err = (status: number, type: string) => response(status, { status, error: { type, message: "m" } });
    expect(() => adapter.parseResponse("enrichment.people.enrich", err(404, "not_found"), {})).toThrow(
      expect.objectContaining({ kind: "http_4xx", blame: "input", vendorCode: "not_found" }),
    );
    expect(() => adapter.parseResponse("enrichment.company.enrich", err(402, "payment_required"), {})).toThrow(
      expect.objectContaining({ blame: "provider" }),
    );
    expect(() => adapter.parseResponse("enrichment.people.enrich", response(200, { status: 200 }), {})).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("enriches a person by email on the sandbox, in the shape Apollo's route gives", async () => {
    const { result } = await routes.execute("peopledatalabs", "direct", "enrichment.people.enrich", {
      email: "ada.moreau@northwind.example",
    });
    expect(result.data).toMatchObject({
      matched: true,
      person: {
        name: "Ada Moreau",
        title: "Vp Of Engineering",
        seniority: "vp",
        company: "Northwind Labs",
        companyDomain: "northwind.example",
        linkedinUrl: "https://linkedin.com/in/ada-moreau",
        email: "ada.moreau@northwind.example",
      },
    });
    expect((result.data.person as { employmentHistory: Array<{ current: boolean }> }).employmentHistory.map((e) => e.current)).toEqual([
      true,
      false,
    ]);
  });

  it("answers an unknown person with PDL's 404", async () => {
    const err = await routes.executeError("peopledatalabs", "direct", "enrichment.people.enrich", { email: "nobody@nowhere.example" });
    expect(err).toMatchObject({ status: 404, blame: "input" });
  });

  it("enriches a company by domain on the sandbox", async () => {
    const { result } = await routes.execute("peopledatalabs", "direct", "enrichment.company.enrich", { domain: "northwind.example" });
    expect(result.data).toMatchObject({
      matched: true,
      organization: {
        name: "Northwind Labs",
        domain: "northwind.example",
        employees: 176,
        foundedYear: 2015,
        latestFundingStage: "series_b",
      },
    });
  });
});
