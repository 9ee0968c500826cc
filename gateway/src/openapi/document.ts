// The shape of the OpenAPI document and the names of its schemas (the builders in this folder fill it).

/** A JSON Schema or OpenAPI object, kept loose on purpose: the document is plain JSON. */
export type JsonObject = { [key: string]: unknown };

/** Options of {@link buildOpenApiDocument}. */
export interface BuildOpenApiOptions {
  /** Base path of the REST interface, e.g. `/api/agentic-api` (config.ts validates it): the server URL; paths are relative to it. */
  basePath: string;
  /** Include non-production helpers (`POST /dev/init`). Must be false in production. */
  devRoutes: boolean;
}

/** The document returned by {@link buildOpenApiDocument}. */
export interface OpenApiDocument extends JsonObject {
  openapi: "3.1.0";
  info: JsonObject;
  servers: JsonObject[];
  tags: JsonObject[];
  paths: Record<string, Record<string, JsonObject>>;
  components: {
    schemas: Record<SchemaName, JsonObject>;
    responses: Record<string, JsonObject>;
    parameters: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
  };
}

/** Names of every schema under `components.schemas`. */
export const SCHEMA_NAMES = [
  "DomainCatalogEntry",
  "CapabilityCatalogEntry",
  "RouteCatalogEntry",
  "CapabilityContract",
  "CapabilityOperationContract",
  "CapabilityFieldContract",
  "CapabilityInput",
  "RecommendRequest",
  "RecommendationResponse",
  "RecommendationCandidate",
  "WorkflowRecommendation",
  "RouteTaskRequest",
  "RouteTaskResponse",
  "RouteTaskMatch",
  "TaskConstraints",
  "GenericExecutionResponse",
  "RouteDecision",
  "QuoteResponse",
  "ExecutionStatusResponse",
  "Execution",
  "ExecutionAttempt",
  "ExecutionResult",
  "WalletResponse",
  "TopUpRequest",
  "TopUpResponse",
  "UsageResponse",
  "UsageItem",
  "UsageSummaryResponse",
  "OverviewResponse",
  "DevInitRequest",
  "DevInitResponse",
  "ErrorResponse",
] as const;

/** One of {@link SCHEMA_NAMES}. */
export type SchemaName = (typeof SCHEMA_NAMES)[number];

/** Schemas whose properties are open (free-form objects); every other object schema is closed. */
export const FREE_FORM_SCHEMAS: readonly SchemaName[] = ["CapabilityInput", "RecommendRequest", "UsageItem"];
