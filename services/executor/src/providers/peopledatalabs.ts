// People Data Labs (API v5, `X-Api-Key`), billed by PDL per match only:
// - enrichment.people.enrich: GET /v5/person/enrich?email= | profile= | name=&company= → {status, likelihood, data: {...}};
// - enrichment.company.enrich: GET /v5/company/enrich?website= → {status, likelihood, name, website, size, ...} (flat).
// No match is 404 {status, error: {type: "not_found", message}}: the caller's answer, and nothing is charged.
// Results are normalized to the shapes Apollo's routes give for the same capabilities.
import type { RailResponse } from "../domain/rail-port";
import { InputReader } from "./input";
import type { ProviderContext } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";

const KEY = "peopledatalabs";

/** Matches PDL is less sure of than this (1-10) are answered as no match. */
const MIN_LIKELIHOOD = "6";

const str = (v: unknown, key: string) => stringField(v, key) ?? null;
const num = (v: unknown) => (typeof v === "number" ? v : null);
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

const auth = (ctx: ProviderContext) => ourKeyAs(ctx, "X-Api-Key");

/** The answer's JSON object, once PDL answered 200 (404 is no match). */
function bodyOf(res: RailResponse): Record<string, unknown> {
  if (res.status !== 200) {
    const error = isRecord(res.body) && isRecord(res.body.error) ? res.body.error : undefined;
    throw vendorError(KEY, res, { code: stringField(error, "type"), message: stringField(error, "message") });
  }
  if (!isRecord(res.body)) throw invalidResponse(KEY, res, "without a JSON object");
  return res.body;
}

export const peopledatalabsProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.peopledatalabs.com" },
  capabilities: {
    "enrichment.people.enrich": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const query = new URLSearchParams();
        const email = read.string("email");
        const linkedinUrl = read.string("linkedinUrl");
        const name = read.string("name");
        const domain = read.string("companyDomain");
        if (email) query.set("email", email);
        if (linkedinUrl) query.set("profile", linkedinUrl);
        if (name) query.set("name", name);
        if (domain) query.set("company", domain);
        query.set("min_likelihood", MIN_LIKELIHOOD);
        query.set("titlecase", "true");
        return { method: "GET", url: `${ctx.baseUrl}/v5/person/enrich?${query}`, headers: auth(ctx) };
      },
      parse(res) {
        const body = bodyOf(res);
        const p = isRecord(body.data) ? body.data : undefined;
        if (!p) throw invalidResponse(KEY, res, "without data");
        const experience = Array.isArray(p.experience) ? p.experience.filter(isRecord) : [];
        const levels = strings(p.job_title_levels);
        const url = (v: unknown) => (typeof v === "string" && v ? `https://${v.replace(/^https?:\/\//, "")}` : null);
        return {
          status: "completed",
          data: {
            matched: true,
            person: {
              id: str(p, "id"),
              name: str(p, "full_name"),
              firstName: str(p, "first_name"),
              lastName: str(p, "last_name"),
              title: str(p, "job_title"),
              headline: str(p, "headline"),
              seniority: levels[0] ?? null,
              company: str(p, "job_company_name"),
              companyDomain: str(p, "job_company_website"),
              location: str(p, "location_name"),
              linkedinUrl: url(p.linkedin_url),
              email: str(p, "work_email"),
              emailStatus: null,
              twitterUrl: url(p.twitter_url),
              employmentHistory: experience.map((e) => {
                const company = isRecord(e.company) ? e.company : {};
                const title = isRecord(e.title) ? e.title : {};
                return {
                  company: str(company, "name"),
                  title: str(title, "name"),
                  startDate: str(e, "start_date"),
                  endDate: str(e, "end_date"),
                  current: typeof e.is_primary === "boolean" ? e.is_primary : null,
                };
              }),
            },
          },
        };
      },
    },
    "enrichment.company.enrich": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const query = new URLSearchParams({ website: read.string("domain", true), min_likelihood: MIN_LIKELIHOOD, titlecase: "true" });
        return { method: "GET", url: `${ctx.baseUrl}/v5/company/enrich?${query}`, headers: auth(ctx) };
      },
      parse(res) {
        const c = bodyOf(res);
        if (typeof c.name !== "string") throw invalidResponse(KEY, res, "without the company's name");
        const location = isRecord(c.location) ? c.location : {};
        return {
          status: "completed",
          data: {
            matched: true,
            organization: {
              id: str(c, "id"),
              name: str(c, "display_name") ?? c.name,
              domain: str(c, "website"),
              websiteUrl: c.website ? `https://${String(c.website)}` : null,
              linkedinUrl: c.linkedin_url ? `https://${String(c.linkedin_url)}` : null,
              industry: str(c, "industry"),
              employees: num(c.employee_count),
              foundedYear: num(c.founded),
              location: str(location, "name"),
              description: str(c, "summary"),
              totalFunding: num(c.total_funding_raised),
              latestFundingStage: str(c, "latest_funding_stage"),
              technologies: [],
            },
          },
        };
      },
    },
  },
});
