import { DEFAULT_CATALOG_DIR, loadCatalog } from "@agentic/catalog/testing";
import { MAX_LISTED_CAPABILITIES, MAX_LISTED_DOMAINS } from "./listed";
import { renderLlmsTxt } from "./llms-txt";
import { renderSkillMd } from "./skill-md";
import type { CatalogSnapshot } from "./snapshot";

const snapshot: CatalogSnapshot = {
  catalogVersion: "0123456789abcdef",
  domains: [{ domainKey: "geo", label: "Geo", description: "Time zones.", status: "live" }],
  capabilities: [
    {
      domainKey: "geo",
      capabilityId: "time-current",
      capabilityKey: "geo.time.current",
      label: "Current Time",
      description: "Local time | anywhere.",
      status: "live",
      routes: [{ routeKey: "geo.time.current.timeapi.mpp", providerKey: "timeapi", priceCredits: 2, billing: "per_call" }],
    },
    {
      domainKey: "email",
      capabilityId: "send",
      capabilityKey: "email.send",
      label: "Email Send",
      description: "Send one email.",
      status: "live",
      routes: [{ routeKey: "email.send.resend", providerKey: "resend", priceCredits: 10, billing: "per_unit", unit: "recipient" }],
    },
    {
      domainKey: "text",
      capabilityId: "analyze",
      capabilityKey: "text.analyze",
      label: "Analyze",
      description: "",
      status: "recommend_only",
      routes: [],
    },
    {
      domainKey: "geo",
      capabilityId: "geocode",
      capabilityKey: "geo.geocode",
      label: "Geocode",
      description: "",
      status: "planned",
      routes: [],
    },
  ],
  example: {
    domainKey: "geo",
    capabilityId: "time-current",
    capabilityKey: "geo.time.current",
    executeExample: { timezone: "Europe/Lisbon" },
  },
};

describe("SKILL.md", () => {
  const text = renderSkillMd(snapshot, "/api/agentic-api");

  it("starts its instructions with intent routing: don't know the capability? ask /route", () => {
    expect(text).toMatch(/## Don't know the capability\? Ask `\/route`[\s\S]*## Discovery order/);
    expect(text).toContain(`curl -X POST "$AGENTIC_API_BASE_URL/route"`);
  });

  it("starts with skill front matter and states the base path and the credit rate", () => {
    expect(text).toMatch(/^---\nname: agentic-api\ndescription: .+\n---\n/);
    expect(text).toContain("`/api/agentic-api`");
    expect(text).toContain("1000 credits = 1 USD");
  });

  it("lists the live capabilities with their price and billing, and the gated ones apart; planned ones not at all", () => {
    expect(text).toContain(
      "| `geo.time.current` | `POST /domains/geo/capabilities/time-current/execute` | from 2 credits ($0.002) per call |",
    );
    expect(text).toContain("from 10 credits ($0.010) per recipient");
    expect(text).toContain("Local time \\| anywhere.");
    expect(text).toMatch(/## Gated capabilities[^\n]*\n\n- `text\.analyze`/);
    expect(text).not.toContain("geo.geocode");
  });

  it("gives curl lines for the example capability, with the idempotency key and no host taken from a request", () => {
    expect(text).toContain(
      `curl -X POST "$AGENTIC_API_BASE_URL/domains/geo/capabilities/time-current/execute" -H "Authorization: Bearer $AGENTIC_API_KEY" -H 'content-type: application/json' -H "Idempotency-Key: $KEY" -d '{"timezone":"Europe/Lisbon"}'`,
    );
    expect(text).not.toMatch(/https?:\/\/(?!<)/);
  });
});

describe("llms.txt", () => {
  const text = renderLlmsTxt(snapshot, "/api/agentic-api");

  it("says to ask /route first", () => {
    expect(text).toMatch(/^# Agentic API\n\n> A capability router for AI agents: ask \/route/);
    expect(text).toContain("Don't know the capability? Ask `/route`: `POST /api/agentic-api/route`");
  });

  it("links the instructions, the OpenAPI document and each live capability's contract", () => {
    expect(text).toMatch(/^# Agentic API\n\n> .+\n/);
    expect(text).toContain("- [SKILL.md](/api/agentic-api/SKILL.md)");
    expect(text).toContain("- [OpenAPI document](/api/agentic-api/openapi.json)");
    expect(text).toContain(
      "- [geo.time.current](/api/agentic-api/domains/geo/capabilities/time-current/contract): Current Time, from 2 credits",
    );
    expect(text).toContain("- [text.analyze](/api/agentic-api/domains/text/capabilities/analyze/contract)");
    expect(text).not.toContain("geo.geocode");
  });
});

describe("a large catalog", () => {
  /** `domains` domains of five capabilities each: four live (1 to 4 routes) and one gated. */
  const large = (domains: number): CatalogSnapshot => ({
    catalogVersion: "fedcba9876543210",
    domains: Array.from({ length: domains }, (_, d) => ({ domainKey: `d${d}`, label: `D${d}`, description: "A domain.", status: "live" })),
    capabilities: Array.from({ length: domains }, (_, d) =>
      Array.from({ length: 5 }, (_, i) => ({
        domainKey: `d${d}`,
        capabilityId: `c${i}`,
        capabilityKey: `d${d}.c${i}`,
        label: `C${i}`,
        description: "Does a thing.",
        status: i === 4 ? "recommend_only" : "live",
        routes:
          i === 4
            ? []
            : Array.from({ length: i + 1 + (d === 7 ? 5 : 0) }, (_, r) => ({
                routeKey: `d${d}.c${i}.p${r}`,
                providerKey: `p${r}`,
                priceCredits: 2 + r + (d % 3),
                billing: "per_call",
              })),
      })),
    ).flat(),
  });

  it("names the top capabilities and the largest domains, a bounded text whatever the size, the same for one version", () => {
    const snapshot = large(2_000);
    const skill = renderSkillMd(snapshot, "/api/agentic-api");
    const llms = renderLlmsTxt(snapshot, "/api/agentic-api");
    expect(skill.split("\n").length).toBeLessThan(250);
    expect(llms.split("\n").length).toBeLessThan(150);
    expect(Buffer.byteLength(skill)).toBeLessThan(40_000);
    expect(skill).toContain(`## Top live capabilities (${MAX_LISTED_CAPABILITIES}; ${10_000 - MAX_LISTED_CAPABILITIES} more capabilities`);
    expect(skill).toContain(`## Domains (${MAX_LISTED_DOMAINS} of 2000, most live capabilities first)`);
    expect(skill).toContain("`GET /capabilities?q=<words>&status=live`");
    expect(skill).toContain("Execute only capabilities whose `status` is `live`.");
    // The capability with the most routes comes first.
    expect(skill).toMatch(/\| Routes[^\n]*\n\|---[^\n]*\n\| `d7\.c3` \|/);
    expect(llms).toContain("- [d7.c3](/api/agentic-api/domains/d7/capabilities/c3/contract)");
    expect(llms).toContain("- [Every domain](/api/agentic-api/domains?limit=200)");
    expect(renderSkillMd(large(2_000), "/api/agentic-api")).toBe(skill);
  });

  it("names the shipped catalog whole: it is under the bound", () => {
    const shipped = loadCatalog(DEFAULT_CATALOG_DIR).listDomains();
    const named = shipped.reduce((n, d) => n + d.totalCapabilityCount, 0);
    expect(named).toBeLessThanOrEqual(MAX_LISTED_CAPABILITIES);
    expect(renderSkillMd(snapshot, "/api/agentic-api")).not.toContain("## Domains (");
    expect(renderLlmsTxt(snapshot, "/api/agentic-api")).toContain("## Live capabilities (2)");
  });
});
