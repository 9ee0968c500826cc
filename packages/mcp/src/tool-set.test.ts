import type { CapabilityCatalogEntry, CapabilityContract, RouteCatalogEntry } from "@agentic-api/sdk";
import { executableRoutes, type CatalogCapability, type CatalogView } from "./catalog";
import { buildToolSet, toolName } from "./tool-set";

function capability(
  domainKey: string,
  capabilityId: string,
  status: CapabilityCatalogEntry["status"],
  enabledProviders: string[],
): CapabilityCatalogEntry {
  return {
    capabilityKey: `${domainKey}.${capabilityId.replaceAll("-", ".")}`,
    capabilityId,
    domainKey,
    label: capabilityId,
    description: `Does ${capabilityId}.`,
    status,
    supportedProviders: enabledProviders,
    enabledProviders,
    supportedFeatures: [],
    availableRouteModes: ["managed"],
    routesEndpoint: null,
    contractStatus: "available",
  };
}

function route(c: CapabilityCatalogEntry, providerKey: string, credits: number, more: Partial<RouteCatalogEntry> = {}): RouteCatalogEntry {
  return {
    routeKey: `${c.capabilityKey}.${providerKey}`,
    domainKey: c.domainKey,
    capabilityKey: c.capabilityKey,
    capabilityId: c.capabilityId,
    providerKey,
    providerLabel: providerKey,
    networkKey: "direct",
    routeMode: "managed",
    managedByAgenticApi: true,
    supportedFeatures: [],
    summary: "",
    startingCostCredits: credits,
    status: "live",
    billing: "per_call",
    ...more,
  };
}

const contract = (c: CapabilityCatalogEntry): CapabilityContract => ({
  domainKey: c.domainKey,
  capabilityKey: c.capabilityKey,
  capabilityId: c.capabilityId,
  contractStatus: "available",
  recommend: { status: "available", requiredFields: [], optionalFields: [], conditionallyRequiredFields: [], fields: [], notes: [] },
  execute: {
    status: "available",
    requiredFields: ["q"],
    optionalFields: [],
    conditionallyRequiredFields: [],
    fields: [{ name: "q", type: "string", required: true }],
    notes: [],
  },
  notes: [],
});

function entry(c: CapabilityCatalogEntry, routes: RouteCatalogEntry[], withContract: boolean): CatalogCapability {
  return { entry: c, routes, executable: executableRoutes(c, routes), ...(withContract ? { contract: contract(c) } : {}) };
}

const send = capability("email", "send", "live", ["resend"]);
const current = capability("geo", "time-current", "live", ["timeapi"]);
const dark = capability("geo", "time-convert", "live", []);
const gated = capability("text", "analyze", "recommend_only", []);
const planned = capability("geo", "places-search", "planned", []);

const view: CatalogView = {
  version: '"v1-abc"',
  domains: [],
  capabilities: [
    entry(send, [route(send, "resend", 10, { billing: "per_unit", billedPer: { unit: "recipient", fields: ["to"] } })], true),
    // The cheaper route is pending and the byo one is not brokered: the price is the live managed route's.
    entry(
      current,
      [
        route(current, "googlemaps", 1, { status: "pending" }),
        route(current, "timeapi", 2),
        route(current, "own", 1, { routeMode: "byo" }),
      ],
      true,
    ),
    entry(dark, [route(dark, "timeapi", 2, { status: "pending" })], true),
    entry(gated, [route(gated, "openai", 2, { status: "pending" })], true),
    entry(planned, [route(planned, "googlemaps", 40, { status: "pending" })], false),
  ],
};

describe("buildToolSet", () => {
  const set = buildToolSet(view);
  const names = set.tools.map((t) => t.name);
  const tool = (name: string) => set.tools.find((t) => t.name === name)!;

  it("names a capability's tools <domainKey>_<capabilityId with - as _>_<op>", () => {
    expect(toolName("geo", "time-current", "execute")).toBe("geo_time_current_execute");
    expect(set.version).toBe('"v1-abc"');
  });

  it("gives an executable capability both tools, a gated or routeless one recommend only, a planned one none", () => {
    expect(names).toEqual([
      "find_capability",
      "list_domains",
      "list_capability_tools",
      "get_capability_contract",
      "recommend",
      "execute",
      "email_send_recommend",
      "email_send_execute",
      "geo_time_current_recommend",
      "geo_time_current_execute",
      "geo_time_convert_recommend",
      "text_analyze_recommend",
    ]);
    expect(tool("text_analyze_recommend").description).toMatch(/Recommend only: execution is gated/);
    expect(tool("geo_time_convert_recommend").description).toMatch(/Recommend only/);
    expect(set.capabilities.find((c) => c.capabilityId === "places-search")).toEqual({
      capabilityKey: "geo.places.search",
      domainKey: "geo",
      capabilityId: "places-search",
      label: "places-search",
      status: "planned",
      executable: false,
      recommendTool: "recommend",
    });
  });

  it("prices an execute tool by its cheapest route that runs, with what one charge covers", () => {
    expect(tool("geo_time_current_execute").description).toMatch(/Costs from 2 credits \(\$0\.002\) per call\./);
    expect(tool("geo_time_current_execute")._meta).toMatchObject({ "agentic-api/startingPriceCredits": 2 });
    expect(tool("email_send_execute").description).toMatch(/Costs from 10 credits \(\$0\.010\) per recipient\./);
    expect(set.capabilities.find((c) => c.capabilityId === "time-current")).toMatchObject({ executable: true, startingPriceCredits: 2 });
  });

  it("marks discovery and recommend read-only, execute paid, open-world and not idempotent", () => {
    for (const name of names.filter((n) => !n.endsWith("execute"))) expect(tool(name).annotations).toMatchObject({ readOnlyHint: true });
    for (const name of names.filter((n) => n.endsWith("execute"))) {
      expect(tool(name).annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      });
      expect(tool(name).inputSchema).toMatchObject({ properties: { idempotencyKey: { type: "string" } } });
    }
  });
});
