// The OpenAPI part of GET /overview (gateway/src/routes/overview.ts): its operation and its answer's
// schema, which nests the answers of GET /wallet, GET /usage/summary and GET /usage by reference.
// Plain JSON of the document, kept apart so openapi.ts only adds it to the paths and schemas.
import { OVERVIEW_LATEST } from "../routes/overview";

/** A plain JSON object of the document (openapi.ts's JsonObject; not imported, as openapi.ts imports this file). */
type JsonObject = { [key: string]: unknown };

const schemaRef = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string): JsonObject => ({ $ref: `#/components/responses/${name}` });

/** The examples of the three answers an overview nests. */
export interface OverviewExampleParts {
  wallet: JsonObject;
  summary: JsonObject;
  usage: JsonObject;
}

const overviewExample = (parts: OverviewExampleParts): JsonObject => ({
  success: true,
  userId: parts.wallet.userId,
  wallet: parts.wallet,
  spend: parts.summary,
  latestCharges: { ...parts.usage, items: (parts.usage.items as JsonObject[]).filter((item) => item.kind === "charge") },
});

/** components.schemas.OverviewResponse. */
export function overviewSchemas(parts: OverviewExampleParts): { OverviewResponse: JsonObject } {
  return {
    OverviewResponse: {
      type: "object",
      description:
        "The caller's account at a glance: the wallet, the spend of a range summed, the latest charges; each exactly as its own resource answers it.",
      properties: {
        success: { type: "boolean", const: true },
        userId: { type: "string" },
        wallet: { ...schemaRef("WalletResponse"), description: "As GET /wallet answers it (with the Agent-Name sent)." },
        spend: { ...schemaRef("UsageSummaryResponse"), description: "As GET /usage/summary answers it for `from` and `to`." },
        latestCharges: {
          ...schemaRef("UsageResponse"),
          description:
            "As GET /usage?kind=charge&limit=`latest` answers it: the newest charges; `nextCursor` continues at GET /usage?kind=charge&cursor=.",
        },
      },
      required: ["success", "userId", "wallet", "spend", "latestCharges"],
      additionalProperties: false,
      examples: [overviewExample(parts)],
    },
  };
}

/** paths["/overview"]. */
export function overviewPaths(parts: OverviewExampleParts): Record<string, Record<string, JsonObject>> {
  return {
    "/overview": {
      get: {
        operationId: "getOverview",
        tags: ["Wallet"],
        summary: "Get the wallet, the spend summed and the latest charges in one answer",
        description:
          "What a dashboard shows, in one request: the answers of GET /wallet, GET /usage/summary (over `from` and `to`, by default the last 30 UTC " +
          "days) and GET /usage?kind=charge (the `latest` newest charges), nested as those resources give them. The gateway asks the ledger for " +
          "the three at once. Any other query parameter, a repeated one, or a bad value answers 400 INVALID_INPUT naming it.",
        security: [{ bearerAuth: [] }],
        parameters: [
          {
            name: "from",
            in: "query",
            required: false,
            description: "Start of the spend's range (RFC 3339, with its offset). Default: 30 days before `to`.",
            schema: { type: "string", format: "date-time" },
            example: "2026-11-01T00:00:00Z",
          },
          {
            name: "to",
            in: "query",
            required: false,
            description: "End of the spend's range, excluded; after `from`, at most 366 days after it. Default: the end of today (UTC).",
            schema: { type: "string", format: "date-time" },
            example: "2026-12-01T00:00:00Z",
          },
          {
            name: "latest",
            in: "query",
            required: false,
            description: `How many of the newest charges \`latestCharges\` carries, ${OVERVIEW_LATEST.min} to ${OVERVIEW_LATEST.max}.`,
            schema: { type: "integer", minimum: OVERVIEW_LATEST.min, maximum: OVERVIEW_LATEST.max, default: OVERVIEW_LATEST.default },
          },
          { $ref: "#/components/parameters/AgentName" },
        ],
        responses: {
          "200": {
            description: "The overview.",
            content: {
              "application/json": { schema: schemaRef("OverviewResponse"), examples: { default: { value: overviewExample(parts) } } },
            },
          },
          "400": responseRef("InvalidQuery"),
          "401": responseRef("Unauthorized"),
          "429": responseRef("TooManyRequests"),
          "503": responseRef("Unavailable"),
          "504": responseRef("Timeout"),
        },
      },
    },
  };
}
