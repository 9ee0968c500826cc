// Apollo people-search stand-in (API with `X-Api-Key`, and its x402 host): POST /api/v1/mixed_people/api_search with the
// documented filters → {people[], pagination}; errors {error}. Searches a small fixed directory.
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
    routes: [{ method: "POST", path: "/api/v1/mixed_people/api_search", handle: search }],
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
  const people = matches.slice(start, start + (perPage as number)).map((p) => ({
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
  }));
  return {
    status: 200,
    body: {
      people,
      pagination: { page, per_page: perPage, total_entries: matches.length, total_pages: Math.ceil(matches.length / (perPage as number)) },
    },
  };
}

export const apolloSandbox = {
  key: "apollo",
  apiKey: "apollo-sandbox-key",
  priceAtomic: "20000",
  create: apolloVendor,
} as const satisfies SandboxVendor;
