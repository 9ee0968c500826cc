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
