// The tools of one catalog version, as data (names, descriptions, schemas, annotations, what each
// does): the discovery tools, the generic recommend and execute taking {domain, capabilityId,
// input}, and per capability `<domainKey>_<capabilityId with - as _>_recommend` (free) and
// `..._execute` (paid). A capability gets both when a route executes it now, only the recommend tool
// when it is gated (recommend_only, or live without a route that runs), and none of its own while
// planned or pending (list_capability_tools shows it; the generic recommend tool reaches it).
// Past `genericToolsAbove` capabilities the tool list stops growing with the catalog: only the
// discovery tools (find_capability first) and the generic recommend and execute, which take the
// capability by domain and capabilityId; list_capability_tools then names those generic tools.
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { CatalogCapability, CatalogView } from "./catalog";
import { DERIVED_KEY_WINDOW } from "./idempotency";
import { IDEMPOTENCY_KEY_PROPERTY, executeInputSchema, oneOfRequiredText, recommendInputSchema, type JsonSchema } from "./contract-schema";
import {
  CONTRACT_OUTPUT,
  EXECUTE_OUTPUT,
  FIND_CAPABILITY_OUTPUT,
  LIST_CAPABILITY_TOOLS_OUTPUT,
  LIST_DOMAINS_OUTPUT,
  RECOMMEND_OUTPUT,
} from "./output-schemas";
import { DEFAULT_GENERIC_TOOLS_ABOVE, usesGenericToolsOnly } from "./generic-tools-threshold";
import { startingPrice } from "./prices";
import type { ToolError } from "./results";

/** A capability a tool is bound to. */
export interface Target {
  domain: string;
  capabilityId: string;
}

export type ToolAction =
  | { kind: "find_capability" }
  | { kind: "list_domains" }
  | { kind: "list_capability_tools" }
  | { kind: "get_capability_contract" }
  /** Without a target: the generic tool, which reads the target from its arguments. */
  | { kind: "recommend"; target?: Target }
  | { kind: "execute"; target?: Target };

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
  _meta?: Record<string, unknown>;
  action: ToolAction;
}

/** One line of list_capability_tools. */
export interface CapabilityTools {
  capabilityKey: string;
  domainKey: string;
  capabilityId: string;
  label: string;
  status: string;
  executable: boolean;
  price?: string;
  startingPriceCredits?: number;
  recommendTool: string;
  executeTool?: string;
}

export interface ToolSet {
  /** The catalog version it was built from. */
  version: string;
  tools: ToolDef[];
  domains: CatalogView["domains"];
  capabilities: CapabilityTools[];
  /** Set when the catalog could not be read: the discovery tools answer it, until a read succeeds. */
  unavailable?: ToolError;
}

/** `email_send_execute`, `geo_time_current_recommend`. */
export function toolName(domainKey: string, capabilityId: string, op: "recommend" | "execute"): string {
  return `${domainKey}_${capabilityId.replaceAll("-", "_")}_${op}`;
}

/** Free and changes nothing: discovery and recommend. */
const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
/** Spends credits and acts on the world (sends, buys, calls a vendor); a repeat is a new action unless replayed. */
const PAID: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

const MONEY_RULES =
  "Paid from your credit wallet (1000 credits = 1 USD); only the route that runs is charged. " +
  `Retries are safe: without idempotencyKey, an identical call within ${DERIVED_KEY_WINDOW} replays the first result (replayed: true) at no charge. ` +
  "To do the same action again on purpose, pass a new idempotencyKey.";

function executeTool(c: CatalogCapability & { contract: NonNullable<CatalogCapability["contract"]> }): ToolDef {
  const { entry, contract } = c;
  const price = startingPrice(c.executable);
  const recommend = toolName(entry.domainKey, entry.capabilityId, "recommend");
  return {
    name: toolName(entry.domainKey, entry.capabilityId, "execute"),
    title: `${entry.label}: execute (paid)`,
    description: [
      `${entry.label} (${entry.capabilityKey}): ${entry.description}`,
      `Costs ${price ?? "the price of the route that runs"}. ${MONEY_RULES}`,
      `Free first: ${recommend} shows the route that would run and its price.`,
      ...oneOfRequiredText(contract.execute),
    ].join(" "),
    inputSchema: executeInputSchema(contract.execute!),
    outputSchema: EXECUTE_OUTPUT,
    annotations: { title: `${entry.label}: execute (paid)`, ...PAID },
    _meta: priceMeta(c),
    action: { kind: "execute", target: { domain: entry.domainKey, capabilityId: entry.capabilityId } },
  };
}

function recommendTool(c: CatalogCapability, executable: boolean): ToolDef {
  const { entry, contract } = c;
  const price = startingPrice(c.executable);
  const gated = executable
    ? `Execution costs ${price}; execute it with ${toolName(entry.domainKey, entry.capabilityId, "execute")}.`
    : "Recommend only: execution is gated, so this capability can be compared but not executed now.";
  return {
    name: toolName(entry.domainKey, entry.capabilityId, "recommend"),
    title: `${entry.label}: recommend (free)`,
    description: [
      `${entry.label} (${entry.capabilityKey}): ${entry.description}`,
      "Free: which route would run this request, its price in credits, canExecuteNow and what blocks it; never performs the operation.",
      gated,
    ].join(" "),
    inputSchema: recommendInputSchema(contract?.recommend),
    outputSchema: RECOMMEND_OUTPUT,
    annotations: { title: `${entry.label}: recommend (free)`, ...READ_ONLY },
    _meta: priceMeta(c),
    action: { kind: "recommend", target: { domain: entry.domainKey, capabilityId: entry.capabilityId } },
  };
}

/** The price as data, for clients that read it (MCP has no price field). */
function priceMeta(c: CatalogCapability): Record<string, unknown> {
  const cheapest = c.executable[0];
  return {
    "agentic-api/capabilityKey": c.entry.capabilityKey,
    ...(cheapest ? { "agentic-api/startingPriceCredits": cheapest.startingCostCredits, "agentic-api/billing": cheapest.billing } : {}),
  };
}

const TARGET_PROPERTIES = {
  domain: { type: "string", minLength: 1, description: "Domain key, e.g. geo (list_domains)." },
  capabilityId: {
    type: "string",
    minLength: 1,
    description: "Capability id inside the domain, e.g. time-current (list_capability_tools).",
  },
};

/** The tools every catalog version has. */
function fixedTools(): ToolDef[] {
  return [
    {
      name: "find_capability",
      title: "Find the capability for a task",
      description:
        'Free, no key needed. Don\'t know which capability does your task? Describe it in words ("tell ana@example.com the invoice is attached") ' +
        "and get the capabilities that do it, best first, with a 0-1 score, why each matched, its starting price in credits and its contract path; " +
        "abstained: true when nothing in the catalog does it; constraints the words state (cheapest -> cost, under 20 credits, via Postmark, the fields " +
        "your words fill such as `to`). Then get_capability_contract and the capability's recommend and execute tools.",
      inputSchema: {
        type: "object",
        properties: {
          task: { type: "string", minLength: 1, maxLength: 2000, description: "What you want done, in words." },
          limit: { type: "integer", minimum: 1, maximum: 20, description: "Matches to list (default 5)." },
          domain: { type: "string", description: "Only this domain's capabilities (a domainKey from list_domains)." },
        },
        required: ["task"],
        additionalProperties: false,
      },
      outputSchema: FIND_CAPABILITY_OUTPUT,
      annotations: { title: "Find the capability for a task", ...READ_ONLY },
      action: { kind: "find_capability" },
    },
    {
      name: "list_domains",
      title: "List domains",
      description:
        "Free. The capability domains (email, search, web, geo, models, ...) with their status, number of live capabilities and starting price in credits (1000 credits = 1 USD). Start here, then list_capability_tools.",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      outputSchema: LIST_DOMAINS_OUTPUT,
      annotations: { title: "List domains", ...READ_ONLY },
      action: { kind: "list_domains" },
    },
    {
      name: "list_capability_tools",
      title: "List capabilities and their tools",
      description:
        "Free. Every capability (of one domain, or all) with its status, whether it can be executed now, its starting price, and the names of the tools that call it. Capabilities without tools of their own (planned, pending) are reached with the generic recommend tool.",
      inputSchema: {
        type: "object",
        properties: { domain: { type: "string", description: "Only this domain's capabilities (a domainKey from list_domains)." } },
        additionalProperties: false,
      },
      outputSchema: LIST_CAPABILITY_TOOLS_OUTPUT,
      annotations: { title: "List capabilities and their tools", ...READ_ONLY },
      action: { kind: "list_capability_tools" },
    },
    {
      name: "get_capability_contract",
      title: "Get a capability's contract",
      description:
        "Free. The exact request fields of a capability's recommend and execute calls (types, required fields, limits, formats), with request and response examples. Read it before the first execute of a capability.",
      inputSchema: { type: "object", properties: TARGET_PROPERTIES, required: ["domain", "capabilityId"], additionalProperties: false },
      outputSchema: CONTRACT_OUTPUT,
      annotations: { title: "Get a capability's contract", ...READ_ONLY },
      action: { kind: "get_capability_contract" },
    },
    {
      name: "recommend",
      title: "Recommend a route (any capability, free)",
      description:
        "Free. For any capability by domain and capabilityId: which route would run the request in input, its price in credits, canExecuteNow and what blocks it. Never performs the operation.",
      inputSchema: {
        type: "object",
        properties: {
          ...TARGET_PROPERTIES,
          input: {
            type: "object",
            description: "Recommend fields (agentName, optimizationPreferences, ...) and optionally the execute fields.",
          },
          limit: {
            type: "integer",
            minimum: 1,
            maximum: 200,
            description: "Candidates to list in full, best first; the rest are counted in candidatesOmitted (default: all).",
          },
        },
        required: ["domain", "capabilityId"],
        additionalProperties: false,
      },
      outputSchema: RECOMMEND_OUTPUT,
      annotations: { title: "Recommend a route (free)", ...READ_ONLY },
      action: { kind: "recommend" },
    },
    {
      name: "execute",
      title: "Execute any capability (paid)",
      description: [
        "Executes any capability by domain and capabilityId, with its execute fields in input (read them with get_capability_contract first).",
        MONEY_RULES,
        "Prefer the capability's own <domain>_<capability>_execute tool when it has one.",
      ].join(" "),
      inputSchema: {
        type: "object",
        properties: {
          ...TARGET_PROPERTIES,
          input: {
            type: "object",
            description: "The execute fields of the capability's contract (and provider, routeKey, allowFallback to pin a route).",
          },
          idempotencyKey: IDEMPOTENCY_KEY_PROPERTY,
        },
        required: ["domain", "capabilityId", "input"],
        additionalProperties: false,
      },
      outputSchema: EXECUTE_OUTPUT,
      annotations: { title: "Execute any capability (paid)", ...PAID },
      action: { kind: "execute" },
    },
  ];
}

/**
 * Every tool of `view`, with the capability list list_capability_tools answers from. Past
 * `genericToolsAbove` capabilities no capability gets tools of its own (the view then has no contracts).
 */
export function buildToolSet(view: CatalogView, genericToolsAbove = DEFAULT_GENERIC_TOOLS_ABOVE): ToolSet {
  const tools = fixedTools();
  const capabilities: CapabilityTools[] = [];
  const genericOnly = usesGenericToolsOnly(view.capabilities.length, genericToolsAbove);
  for (const c of view.capabilities) {
    const { entry } = c;
    if (genericOnly) {
      // Executable as its routes say: its contract is not read.
      const executable = c.executable.length > 0;
      capabilities.push(capabilityLine(c, executable, "recommend", executable ? "execute" : undefined));
      continue;
    }
    const executable = c.executable.length > 0 && c.contract?.execute !== undefined;
    const own = c.contract !== undefined;
    if (own) tools.push(recommendTool(c, executable));
    if (executable) tools.push(executeTool(c as Parameters<typeof executeTool>[0]));
    capabilities.push(
      capabilityLine(
        c,
        executable,
        own ? toolName(entry.domainKey, entry.capabilityId, "recommend") : "recommend",
        executable ? toolName(entry.domainKey, entry.capabilityId, "execute") : undefined,
      ),
    );
  }
  return { version: view.version, tools, domains: view.domains, capabilities };
}

/** A capability's line of list_capability_tools: what it is, its starting price, and the tools that act on it. */
function capabilityLine(c: CatalogCapability, executable: boolean, recommendToolName: string, executeToolName?: string): CapabilityTools {
  const { entry } = c;
  const price = startingPrice(c.executable);
  return {
    capabilityKey: entry.capabilityKey,
    domainKey: entry.domainKey,
    capabilityId: entry.capabilityId,
    label: entry.label,
    status: entry.status,
    executable,
    ...(price ? { price, startingPriceCredits: c.executable[0]!.startingCostCredits } : {}),
    recommendTool: recommendToolName,
    ...(executeToolName ? { executeTool: executeToolName } : {}),
  };
}

/** The fixed tools alone, for a server that could not read the catalog yet. */
export function unavailableToolSet(error: ToolError): ToolSet {
  return { version: "", tools: fixedTools(), domains: [], capabilities: [], unavailable: error };
}
