// People Data Labs stand-in (API v5, `X-Api-Key`): GET /v5/person/enrich?email= | profile= | name=&company=
// (+ min_likelihood, titlecase) → {status: 200, likelihood, data: {...}}; GET /v5/company/enrich?website= | name=
// → {status: 200, likelihood, name, website, size, ...} (flat). No match: 404 {status, error: {type:
// "not_found", message}}. Values are lowercase unless titlecase=true, as PDL answers.
import {
  header,
  type SandboxVendor,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
} from "../http/vendor";

const TYPES: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "payment_required",
  404: "not_found",
  429: "rate_limit_error",
};

function error(status: number, message: string): VendorReply {
  return { status, body: { status, error: { type: TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error"), message } } };
}

interface Company {
  id: string;
  name: string;
  website: string;
  industry: string;
  size: string;
  employees: number;
  founded: number;
  location: string;
  funding: number | null;
  stage: string | null;
  tags: string[];
}

interface Person {
  id: string;
  first: string;
  last: string;
  title: string;
  level: string;
  location: string;
  company: string;
}

const COMPANIES: readonly Company[] = [
  {
    id: "nw1Lz0bX",
    name: "northwind labs",
    website: "northwind.example",
    industry: "computer software",
    size: "51-200",
    employees: 176,
    founded: 2015,
    location: "paris, ile-de-france, france",
    funding: 42000000,
    stage: "series_b",
    tags: ["developer tools", "saas"],
  },
  {
    id: "gx2Mq1cY",
    name: "globex analytics",
    website: "globex.example",
    industry: "information technology and services",
    size: "501-1000",
    employees: 912,
    founded: 2009,
    location: "austin, texas, united states",
    funding: 120000000,
    stage: "series_d",
    tags: ["analytics", "data"],
  },
  {
    id: "it3Nr2dZ",
    name: "initech",
    website: "initech.example",
    industry: "financial services",
    size: "51-200",
    employees: 63,
    founded: 2019,
    location: "madrid, madrid, spain",
    funding: 8000000,
    stage: "seed",
    tags: ["fintech", "payments"],
  },
];

const PEOPLE: readonly Person[] = [
  {
    id: "qEnOZ5Oh0poWnQ1luFBfVw_0000",
    first: "ada",
    last: "moreau",
    title: "vp of engineering",
    level: "vp",
    location: "paris, ile-de-france, france",
    company: "northwind.example",
  },
  {
    id: "qEnOZ5Oh0poWnQ1luFBfVw_0001",
    first: "chen",
    last: "wei",
    title: "head of sales",
    level: "director",
    location: "singapore, singapore",
    company: "globex.example",
  },
  {
    id: "qEnOZ5Oh0poWnQ1luFBfVw_0002",
    first: "eli",
    last: "navarro",
    title: "engineering manager",
    level: "manager",
    location: "madrid, madrid, spain",
    company: "initech.example",
  },
];

const title = (s: string) => s.replace(/\b([a-z])/g, (c) => c.toUpperCase());

export function peopledatalabsVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "peopledatalabs",
    price: { amountAtomic: priceAtomic, description: "People Data Labs enrichment" },
    authenticate: (req) =>
      header(req, "x-api-key")
        ? header(req, "x-api-key") === apiKey
          ? undefined
          : error(401, "Invalid API Key")
        : error(401, "No API Key was provided"),
    errorReply: error,
    routes: [
      { method: "GET", path: "/v5/person/enrich", handle: enrichPerson },
      { method: "GET", path: "/v5/company/enrich", handle: enrichCompany },
    ],
  };
}

function minLikelihood(req: VendorRequest): number | VendorReply {
  const value = req.query.min_likelihood === undefined ? 2 : Number(req.query.min_likelihood);
  return Number.isInteger(value) && value >= 1 && value <= 10 ? value : error(400, "min_likelihood must be an integer between 1 and 10");
}

function enrichPerson(req: VendorRequest): VendorReply {
  const q = req.query;
  const min = minLikelihood(req);
  if (typeof min !== "number") return min;
  if (!q.email && !q.profile && !(q.name && (q.company || q.location)) && !(q.first_name && q.last_name))
    return error(
      400,
      "Request requires one of: profile, email, phone, email_hash, lirid, pdl_id; or name with company, school or location",
    );
  const company = (domain: string) => COMPANIES.find((c) => c.website === domain) as Company;
  const found = PEOPLE.find((p) => {
    const email = `${p.first}.${p.last}@${p.company}`;
    const slug = `linkedin.com/in/${p.first}-${p.last}`;
    return (
      (q.email !== undefined && q.email.toLowerCase() === email) ||
      (q.profile !== undefined &&
        q.profile
          .toLowerCase()
          .replace(/^https?:\/\/(www\.)?/, "")
          .replace(/\/+$/, "") === slug) ||
      (q.name !== undefined &&
        q.name.toLowerCase().trim() === `${p.first} ${p.last}` &&
        (!q.company || [p.company, company(p.company).name].includes(q.company.toLowerCase())))
    );
  });
  const likelihood = found ? (q.email || q.profile ? 9 : 7) : 0;
  if (!found || likelihood < min) return error(404, "No records were found matching your request");
  const c = company(found.company);
  const tc = (s: string) => (q.titlecase === "true" ? title(s) : s);
  return {
    status: 200,
    body: {
      status: 200,
      likelihood,
      data: {
        id: found.id,
        full_name: tc(`${found.first} ${found.last}`),
        first_name: tc(found.first),
        last_name: tc(found.last),
        headline: tc(`${found.title} at ${c.name}`),
        linkedin_url: `linkedin.com/in/${found.first}-${found.last}`,
        twitter_url: null,
        work_email: `${found.first}.${found.last}@${found.company}`,
        job_title: tc(found.title),
        job_title_levels: [found.level],
        job_company_name: tc(c.name),
        job_company_website: c.website,
        location_name: tc(found.location),
        experience: [
          {
            company: { name: tc(c.name), website: c.website },
            title: { name: tc(found.title) },
            start_date: "2021-03",
            end_date: null,
            is_primary: true,
          },
          {
            company: { name: tc("acme corp"), website: "acme.example" },
            title: { name: tc("analyst") },
            start_date: "2017-09",
            end_date: "2021-02",
            is_primary: false,
          },
        ],
      },
    },
  };
}

function enrichCompany(req: VendorRequest): VendorReply {
  const min = minLikelihood(req);
  if (typeof min !== "number") return min;
  const website = req.query.website
    ?.toLowerCase()
    .replace(/^https?:\/\/(www\.)?/, "")
    .replace(/\/.*$/, "");
  const name = req.query.name?.toLowerCase();
  if (!website && !name && !req.query.profile && !req.query.ticker)
    return error(400, "Request requires one of: name, profile, ticker, website, pdl_id");
  const found = COMPANIES.find((c) => c.website === website || c.name === name);
  if (!found || 9 < min) return error(404, "No records were found matching your request");
  const tc = (s: string) => (req.query.titlecase === "true" ? title(s) : s);
  return {
    status: 200,
    body: {
      status: 200,
      likelihood: 9,
      id: found.id,
      name: found.name,
      display_name: title(found.name),
      website: found.website,
      size: found.size,
      employee_count: found.employees,
      founded: found.founded,
      industry: tc(found.industry),
      location: { name: tc(found.location), country: tc(found.location.split(", ").at(-1) ?? "") },
      linkedin_url: `linkedin.com/company/${found.name.replace(/\s+/g, "-")}`,
      summary: `${title(found.name)} builds ${found.tags.join(" and ")} products.`,
      total_funding_raised: found.funding,
      latest_funding_stage: found.stage,
      tags: found.tags,
    },
  };
}

export const peopledatalabsSandbox = {
  key: "peopledatalabs",
  apiKey: "pdl-sandbox-key",
  priceAtomic: "100000",
  create: peopledatalabsVendor,
} as const satisfies SandboxVendor;
