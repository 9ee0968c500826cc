// Output schemas of the tools: the API's answers (as the OpenAPI document describes them) plus what
// the MCP server adds. Only what every answer carries is required, and other properties are allowed,
// so a field the API adds later never fails a client's validation of structuredContent. Each has an
// $id (per package version): a client validating with Ajv, as the official SDK's does, compiles a
// schema with an $id once, not again at every tools/list.
import type { JsonSchema } from "./contract-schema";
import { PACKAGE_VERSION } from "./version";

const str = { type: "string" };
const int = { type: "integer" };
const bool = { type: "boolean" };
const strings = { type: "array", items: str };
const withId = (name: string, schema: JsonSchema): JsonSchema => ({ $id: `urn:agentic-api:mcp:${PACKAGE_VERSION}:${name}`, ...schema });
const open = (properties: Record<string, unknown>, required: string[] = []): JsonSchema => ({
  type: "object",
  properties,
  ...(required.length > 0 ? { required } : {}),
  additionalProperties: true,
});

/** execute tools: GenericExecutionResponse, plus the execution and the Idempotency-Key it ran under. */
export const EXECUTE_OUTPUT = withId(
  "execute-output",
  open(
    {
      success: bool,
      status: { ...str, description: "sent, created, quoted or succeeded." },
      provider: { ...str, description: "Provider of the route that served the call (after any fallback)." },
      routeKey: { ...str, description: "Route that served the call." },
      creditsCharged: { ...int, description: "Credits charged for this execution (1000 credits = 1 USD); 0 more on a replay." },
      providerMessageId: str,
      data: { type: "object", description: "The capability's result." },
      usage: open({ inputTokens: int, outputTokens: int }),
      executionId: { ...str, description: "Read it at GET /executions/{id}." },
      replayed: {
        ...bool,
        description: "True when this is the stored result of an earlier call with the same idempotencyKey: nothing ran or was charged now.",
      },
      idempotencyKey: { ...str, description: "The Idempotency-Key this call was sent with." },
      idempotencyKeyDerived: { ...bool, description: "True when the server derived the key from the call (no idempotencyKey was given)." },
    },
    ["success", "replayed", "idempotencyKey", "idempotencyKeyDerived"],
  ),
);

const candidate = open({
  provider: str,
  routeKey: str,
  routeMode: str,
  canExecuteNow: bool,
  score: { type: "number" },
  priceCredits: int,
  supportedFeatures: strings,
  blockingRequirements: strings,
  nextActions: strings,
  reasons: strings,
});

/** recommend tools: RecommendationResponse. */
export const RECOMMEND_OUTPUT = withId(
  "recommend-output",
  open(
    {
      success: bool,
      productKey: str,
      optimizationPreferences: strings,
      recommendedProvider: str,
      recommendedRouteKey: str,
      recommendedRouteMode: str,
      canExecuteNow: { ...bool, description: "Whether the recommended route can be executed at once." },
      blockingRequirements: { ...strings, description: "What prevents execution now; empty when nothing blocks." },
      nextActions: strings,
      candidates: { type: "array", items: candidate },
      candidatesOmitted: { type: "integer", description: "With limit: how many more candidates were left out." },
      workflowRecommendations: { type: "array", items: { type: "object" } },
    },
    ["success", "canExecuteNow", "blockingRequirements", "candidates"],
  ),
);

export const LIST_DOMAINS_OUTPUT = withId(
  "list-domains-output",
  open(
    {
      domains: {
        type: "array",
        items: open(
          {
            domainKey: str,
            label: str,
            description: str,
            status: { ...str, description: "live (has live capabilities) or pending." },
            liveCapabilityCount: int,
            totalCapabilityCount: int,
            startingPriceCredits: { ...int, description: "Lowest starting price of a live capability, in credits." },
          },
          ["domainKey", "status"],
        ),
      },
    },
    ["domains"],
  ),
);

export const LIST_CAPABILITY_TOOLS_OUTPUT = withId(
  "list-capability-tools-output",
  open(
    {
      capabilities: {
        type: "array",
        items: open(
          {
            capabilityKey: str,
            domainKey: str,
            capabilityId: str,
            label: str,
            status: { ...str, description: "live, recommend_only (execution gated), planned or pending." },
            executable: { ...bool, description: "Whether a route runs it now." },
            price: { ...str, description: "Starting price of an execution, when it has one." },
            startingPriceCredits: int,
            recommendTool: { ...str, description: "Tool that recommends a route for it (free)." },
            executeTool: { ...str, description: "Tool that executes it (paid); absent when it cannot be executed now." },
          },
          ["capabilityKey", "domainKey", "capabilityId", "status", "executable"],
        ),
      },
    },
    ["capabilities"],
  ),
);

/** get_capability_contract: CapabilityContract. */
export const CONTRACT_OUTPUT = withId(
  "contract-output",
  open(
    {
      domainKey: str,
      capabilityKey: str,
      capabilityId: str,
      contractStatus: str,
      recommend: { type: "object", description: "Fields of the recommend call." },
      execute: { type: "object", description: "Fields of the execute call, with a request and a response example." },
      notes: strings,
    },
    ["domainKey", "capabilityKey", "capabilityId"],
  ),
);

/** find_capability: the API's RouteTaskResponse (POST /route). */
export const FIND_CAPABILITY_OUTPUT = withId(
  "find-capability-output",
  open(
    {
      task: str,
      matches: {
        type: "array",
        description: "Best first. When abstained, the nearest ones, each below the threshold.",
        items: open(
          {
            capabilityKey: str,
            domainKey: str,
            capabilityId: str,
            label: str,
            status: str,
            score: { type: "number", description: "0-1, comparable across tasks." },
            why: str,
            startingPriceCredits: { type: ["number", "null"] },
            contractPath: { type: ["string", "null"] },
            recommendPath: { type: ["string", "null"] },
          },
          ["capabilityKey", "domainKey", "capabilityId", "score"],
        ),
      },
      abstained: { ...bool, description: "True when nothing in the catalog does the task." },
      constraints: open({ optimizationPreferences: strings, maxPriceCredits: int, provider: str, fields: { type: "object" } }),
      catalogVersion: str,
    },
    ["task", "matches", "abstained", "constraints"],
  ),
);
