// Apollo stand-in (API with `X-Api-Key`, and its x402 host), over a small fixed directory of people and companies:
// POST /api/v1/mixed_people/api_search (people filters) → {people[], pagination}; POST /api/v1/people/match
// {email | linkedin_url | name (+ domain)} → {person} (null: no match); POST /api/v1/mixed_companies/search
// (organization filters) → {organizations[], pagination}; GET /api/v1/organizations/enrich?domain= → {organization}
// ({} for an unknown domain). Errors {error}. Enrichments cost more than searches on the paid mounts.
import {
  header,
  isObject,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
} from "../http/vendor";

const MAX_PER_PAGE = 100;
/** An enrichment on the x402 host: $0.0495 (AgentCash's Apollo enrichment price). */
const ENRICH_PRICE_ATOMIC = "49500";

interface Person {
  id: string;
  first_name: string;
  last_name: string;
  title: string;
  seniority: string;
  city: string;
  state: string | null;
  country: string;
  org: { id: string; name: string; primary_domain: string };
}

const DIRECTORY: Person[] = [
  {
    id: "64a1f0c2e4b0a1b2c3d4e501",
    first_name: "Ada",
    last_name: "Moreau",
    title: "VP of Engineering",
    seniority: "vp",
    city: "Paris",
    state: null,
    country: "France",
    org: { id: "5f0c1a", name: "Northwind Labs", primary_domain: "northwind.example" },
  },
  {
    id: "64a1f0c2e4b0a1b2c3d4e502",
    first_name: "Ben",
    last_name: "Okafor",
    title: "Senior Software Engineer",
    seniority: "senior",
    city: "Lagos",
    state: null,
    country: "Nigeria",
    org: { id: "5f0c1a", name: "Northwind Labs", primary_domain: "northwind.example" },
  },
  {
    id: "64a1f0c2e4b0a1b2c3d4e503",
    first_name: "Chen",
    last_name: "Wei",
    title: "Head of Sales",
    seniority: "head",
    city: "Singapore",
    state: null,
    country: "Singapore",
    org: { id: "5f0c1b", name: "Globex Analytics", primary_domain: "globex.example" },
  },
  {
    id: "64a1f0c2e4b0a1b2c3d4e504",
    first_name: "Dana",
    last_name: "Kowalski",
    title: "Chief Executive Officer",
    seniority: "c_suite",
    city: "Austin",
    state: "Texas",
    country: "United States",
    org: { id: "5f0c1b", name: "Globex Analytics", primary_domain: "globex.example" },
  },
  {
    id: "64a1f0c2e4b0a1b2c3d4e505",
    first_name: "Eli",
    last_name: "Navarro",
    title: "Engineering Manager",
    seniority: "manager",
    city: "Madrid",
    state: null,
    country: "Spain",
    org: { id: "5f0c1c", name: "Initech", primary_domain: "initech.example" },
  },
  {
    id: "64a1f0c2e4b0a1b2c3d4e506",
    first_name: "Fatima",
    last_name: "Haddad",
    title: "Software Engineer",
    seniority: "entry",
    city: "Berlin",
    state: null,
    country: "Germany",
    org: { id: "5f0c1c", name: "Initech", primary_domain: "initech.example" },
  },
  {
    id: "64a1f0c2e4b0a1b2c3d4e507",
    first_name: "Goro",
    last_name: "Tanaka",
    title: "Director of Marketing",
    seniority: "director",
    city: "Tokyo",
    state: null,
    country: "Japan",
    org: { id: "5f0c1a", name: "Northwind Labs", primary_domain: "northwind.example" },
  },
  {
    id: "64a1f0c2e4b0a1b2c3d4e508",
    first_name: "Hana",
    last_name: "Svoboda",
    title: "Founder",
    seniority: "founder",
    city: "Prague",
    state: null,
    country: "Czechia",
    org: { id: "5f0c1d", name: "Umbrella Robotics", primary_domain: "umbrella.example" },
  },
];

function error(status: number, message: string): VendorReply {
  return { status, body: { error: message } };
}

export function apolloVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "apollo",
    price: { amountAtomic: priceAtomic, description: "Apollo people search" },
    authenticate: (req) => (header(req, "x-api-key") === apiKey ? undefined : error(401, "Invalid access credentials.")),
    errorReply: error,
    routes: [
      { method: "POST", path: "/api/v1/mixed_people/api_search", handle: search },
      { method: "POST", path: "/api/v1/people/match", priceAtomic: ENRICH_PRICE_ATOMIC, handle: matchPerson },
      { method: "POST", path: "/api/v1/mixed_companies/search", handle: searchCompanies },
      { method: "GET", path: "/api/v1/organizations/enrich", priceAtomic: ENRICH_PRICE_ATOMIC, handle: enrichOrganization },
    ],
  };
}

function stringList(value: unknown): string[] | undefined | null {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) return null;
  return (value as string[]).map((v) => v.toLowerCase());
}

function search(req: VendorRequest): VendorReply {
  const b = req.body === undefined ? {} : req.body;
  if (!isObject(b)) return error(422, "Request body must be a JSON object");
  const titles = stringList(b.person_titles);
  const domains = stringList(b.q_organization_domains_list);
  const locations = stringList(b.person_locations);
  const seniorities = stringList(b.person_seniorities);
  if (titles === null || domains === null || locations === null || seniorities === null)
    return error(422, "person_titles, q_organization_domains_list, person_locations and person_seniorities must be arrays of strings");
  if (b.q_keywords !== undefined && typeof b.q_keywords !== "string") return error(422, "q_keywords must be a string");
  const page = b.page === undefined ? 1 : b.page;
  const perPage = b.per_page === undefined ? 10 : b.per_page;
  if (!Number.isInteger(page) || (page as number) < 1) return error(422, "page must be a positive integer");
  if (!Number.isInteger(perPage) || (perPage as number) < 1 || (perPage as number) > MAX_PER_PAGE)
    return error(422, `per_page must be between 1 and ${MAX_PER_PAGE}`);
  const keywords = (b.q_keywords as string | undefined)?.toLowerCase().split(/\s+/).filter(Boolean) ?? [];

  const matches = DIRECTORY.filter((p) => {
    const haystack = `${p.first_name} ${p.last_name} ${p.title} ${p.org.name} ${p.city} ${p.country}`.toLowerCase();
    return (
      (!titles || titles.some((t) => p.title.toLowerCase().includes(t))) &&
      (!domains || domains.includes(p.org.primary_domain)) &&
      (!locations || locations.some((l) => `${p.city} ${p.state ?? ""} ${p.country}`.toLowerCase().includes(l))) &&
      (!seniorities || seniorities.includes(p.seniority)) &&
      keywords.every((k) => haystack.includes(k))
    );
  });
  const start = ((page as number) - 1) * (perPage as number);
  const people = matches.slice(start, start + (perPage as number)).map(personRecord);
  return {
    status: 200,
    body: {
      people,
      pagination: { page, per_page: perPage, total_entries: matches.length, total_pages: Math.ceil(matches.length / (perPage as number)) },
    },
  };
}

function personRecord(p: Person) {
  return {
    id: p.id,
    first_name: p.first_name,
    last_name: p.last_name,
    name: `${p.first_name} ${p.last_name}`,
    linkedin_url: `http://www.linkedin.com/in/${p.first_name.toLowerCase()}-${p.last_name.toLowerCase()}`,
    title: p.title,
    headline: `${p.title} at ${p.org.name}`,
    seniority: p.seniority,
    city: p.city,
    state: p.state,
    country: p.country,
    organization_id: p.org.id,
    organization: {
      id: p.org.id,
      name: p.org.name,
      website_url: `http://www.${p.org.primary_domain}`,
      primary_domain: p.org.primary_domain,
    },
  };
}

function emailOf(p: Person): string {
  return `${p.first_name}.${p.last_name}@${p.org.primary_domain}`.toLowerCase();
}

function matchPerson(req: VendorRequest): VendorReply {
  const b = req.body === undefined ? {} : req.body;
  if (!isObject(b)) return error(422, "Request body must be a JSON object");
  for (const field of ["email", "linkedin_url", "name", "first_name", "last_name", "domain", "organization_name"])
    if (b[field] !== undefined && typeof b[field] !== "string") return error(422, `${field} must be a string`);
  const email = (b.email as string | undefined)?.toLowerCase();
  const linkedin = (b.linkedin_url as string | undefined)
    ?.toLowerCase()
    .replace(/^https?:\/\/(www\.)?/, "")
    .replace(/\/+$/, "");
  const name = ((b.name as string | undefined) ?? [b.first_name, b.last_name].filter(Boolean).join(" ")).toLowerCase().trim();
  const domain = (b.domain as string | undefined)?.toLowerCase();
  if (!email && !linkedin && !name)
    return error(422, "Please provide at least one of email, linkedin_url, name or first_name and last_name");
  const found = DIRECTORY.find(
    (p) =>
      (email !== undefined && emailOf(p) === email) ||
      (linkedin !== undefined && personRecord(p).linkedin_url.replace(/^http:\/\/www\./, "") === linkedin) ||
      (name !== "" && `${p.first_name} ${p.last_name}`.toLowerCase() === name && (!domain || p.org.primary_domain === domain)),
  );
  if (!found) return { status: 200, body: { person: null } };
  return {
    status: 200,
    body: {
      person: {
        ...personRecord(found),
        email: emailOf(found),
        email_status: "verified",
        twitter_url: null,
        employment_history: [
          { organization_name: found.org.name, title: found.title, start_date: "2021-03-01", end_date: null, current: true },
          { organization_name: "Acme Corp", title: "Analyst", start_date: "2017-09-01", end_date: "2021-02-28", current: false },
        ],
      },
    },
  };
}

interface Organization {
  id: string;
  name: string;
  primary_domain: string;
  industry: string;
  keywords: string[];
  estimated_num_employees: number;
  founded_year: number;
  city: string;
  state: string | null;
  country: string;
  total_funding: number | null;
  latest_funding_stage: string | null;
  technology_names: string[];
}

const ORGANIZATIONS: Organization[] = [
  {
    id: "5f0c1a",
    name: "Northwind Labs",
    primary_domain: "northwind.example",
    industry: "computer software",
    keywords: ["developer tools", "saas", "api"],
    estimated_num_employees: 180,
    founded_year: 2015,
    city: "Paris",
    state: null,
    country: "France",
    total_funding: 42000000,
    latest_funding_stage: "Series B",
    technology_names: ["AWS", "React", "Stripe"],
  },
  {
    id: "5f0c1b",
    name: "Globex Analytics",
    primary_domain: "globex.example",
    industry: "information technology & services",
    keywords: ["analytics", "data", "saas"],
    estimated_num_employees: 950,
    founded_year: 2009,
    city: "Austin",
    state: "Texas",
    country: "United States",
    total_funding: 120000000,
    latest_funding_stage: "Series D",
    technology_names: ["Google Cloud", "Snowflake"],
  },
  {
    id: "5f0c1c",
    name: "Initech",
    primary_domain: "initech.example",
    industry: "financial services",
    keywords: ["fintech", "payments"],
    estimated_num_employees: 60,
    founded_year: 2019,
    city: "Madrid",
    state: null,
    country: "Spain",
    total_funding: 8000000,
    latest_funding_stage: "Seed",
    technology_names: ["Azure", "Kubernetes"],
  },
  {
    id: "5f0c1d",
    name: "Umbrella Robotics",
    primary_domain: "umbrella.example",
    industry: "mechanical or industrial engineering",
    keywords: ["robotics", "hardware", "automation"],
    estimated_num_employees: 25,
    founded_year: 2021,
    city: "Prague",
    state: null,
    country: "Czechia",
    total_funding: null,
    latest_funding_stage: null,
    technology_names: ["ROS"],
  },
];

function organizationRecord(o: Organization) {
  return {
    id: o.id,
    name: o.name,
    website_url: `http://www.${o.primary_domain}`,
    linkedin_url: `http://www.linkedin.com/company/${o.name.toLowerCase().replace(/\s+/g, "-")}`,
    primary_domain: o.primary_domain,
    industry: o.industry,
    keywords: o.keywords,
    estimated_num_employees: o.estimated_num_employees,
    founded_year: o.founded_year,
    city: o.city,
    state: o.state,
    country: o.country,
    short_description: `${o.name} builds ${o.keywords.join(", ")} products.`,
    total_funding: o.total_funding,
    latest_funding_stage: o.latest_funding_stage,
    technology_names: o.technology_names,
  };
}

/** `"51,200"` → [51, 200]; undefined when malformed. */
function employeeRange(range: string): [number, number] | undefined {
  const m = /^(\d+),(\d+)$/.exec(range.trim());
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

function searchCompanies(req: VendorRequest): VendorReply {
  const b = req.body === undefined ? {} : req.body;
  if (!isObject(b)) return error(422, "Request body must be a JSON object");
  const tags = stringList(b.q_organization_keyword_tags);
  const ranges = stringList(b.organization_num_employees_ranges);
  const locations = stringList(b.organization_locations);
  if (tags === null || ranges === null || locations === null)
    return error(
      422,
      "q_organization_keyword_tags, organization_num_employees_ranges and organization_locations must be arrays of strings",
    );
  const bounds = (ranges ?? []).map(employeeRange);
  if (bounds.some((r) => r === undefined)) return error(422, 'organization_num_employees_ranges entries look like "51,200"');
  const page = b.page === undefined ? 1 : b.page;
  const perPage = b.per_page === undefined ? 10 : b.per_page;
  if (!Number.isInteger(page) || (page as number) < 1) return error(422, "page must be a positive integer");
  if (!Number.isInteger(perPage) || (perPage as number) < 1 || (perPage as number) > MAX_PER_PAGE)
    return error(422, `per_page must be between 1 and ${MAX_PER_PAGE}`);
  const matches = ORGANIZATIONS.filter((o) => {
    const words = `${o.name} ${o.industry} ${o.keywords.join(" ")}`.toLowerCase();
    return (
      (!tags || tags.some((t) => words.includes(t))) &&
      (!ranges ||
        (bounds as Array<[number, number]>).some(([lo, hi]) => o.estimated_num_employees >= lo && o.estimated_num_employees <= hi)) &&
      (!locations || locations.some((l) => `${o.city} ${o.state ?? ""} ${o.country}`.toLowerCase().includes(l)))
    );
  });
  const start = ((page as number) - 1) * (perPage as number);
  return {
    status: 200,
    body: {
      breadcrumbs: [],
      accounts: [],
      organizations: matches.slice(start, start + (perPage as number)).map(organizationRecord),
      pagination: { page, per_page: perPage, total_entries: matches.length, total_pages: Math.ceil(matches.length / (perPage as number)) },
    },
  };
}

function enrichOrganization(req: VendorRequest): VendorReply {
  const domain = req.query.domain?.toLowerCase().trim();
  if (!domain) return error(422, "domain is required");
  const found = ORGANIZATIONS.find((o) => o.primary_domain === domain.replace(/^https?:\/\/(www\.)?/, "").replace(/\/.*$/, ""));
  return { status: 200, body: found ? { organization: organizationRecord(found) } : {} };
}

export const apolloSandbox = {
  key: "apollo",
  apiKey: "apollo-sandbox-key",
  priceAtomic: "20000",
  create: apolloVendor,
} as const satisfies SandboxVendor;
