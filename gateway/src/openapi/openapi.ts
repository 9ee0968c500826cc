// OpenAPI 3.1 description of the Agentic API REST interface: the hosted capability-routing service's
// interface, field for field, so its clients only change the host (new fields are additions). This file
// assembles the document the gateway serves at /openapi.json; its parts live beside it, split like
// routes/: paths/ (the operations of each resource), schemas/ (components.schemas of each resource),
// parameters.ts, error-cases.ts and error-responses.ts (example payloads live in examples.ts).

import { buildExamples, type Examples } from "./examples";
import type { BuildOpenApiOptions, JsonObject, OpenApiDocument, SchemaName } from "./document";
import { buildErrorResponses } from "./error-responses";
import { buildParameters } from "./parameters";
import { catalogAnswers, catalogSchemas } from "./schemas/catalog";
import { routingAnswers, routingSchemas } from "./schemas/routing";
import { executionAnswers } from "./schemas/executions";
import { walletAnswers, walletSchemas } from "./schemas/wallet";
import { developmentAnswers, developmentSchemas } from "./schemas/development";
import { errorResponseAnswers } from "./schemas/error-response";
import { componentSchemasOf } from "./from-zod";
import { catalogPaths } from "./paths/catalog";
import { routingPaths } from "./paths/routing";
import { executionPaths } from "./paths/executions";
import { walletPaths } from "./paths/wallet";
import { developmentPaths } from "./paths/development";

export { FREE_FORM_SCHEMAS, SCHEMA_NAMES } from "./document";
export type { BuildOpenApiOptions, JsonObject, OpenApiDocument, SchemaName } from "./document";

/**
 * Builds the OpenAPI 3.1.0 document of the Agentic API. Paths are relative to the single server,
 * whose URL ends in `basePath`. `POST /dev/init` and its tag appear only when `devRoutes` is true.
 */
export function buildOpenApiDocument(opts: BuildOpenApiOptions): OpenApiDocument {
  const { basePath } = opts;
  const ex = buildExamples(basePath);
  // In the document's order of components (the SDK's generated types follow it).
  const answered = answerSchemas(ex);
  const answers = (...names: SchemaName[]) => Object.fromEntries(names.map((name) => [name, answered[name]]));
  const tags: JsonObject[] = [
    { name: "Catalog", description: "Domains, capabilities and routes. No API key needed." },
    { name: "Contracts", description: "Exact request fields of each capability. No API key needed." },
    { name: "Routing", description: "Recommend a route (free), then execute the capability (paid)." },
    { name: "Executions", description: "Where an execution of the caller stands: for agents awaiting an outcome and for support." },
    { name: "Wallet", description: "Credit balance and usage of the caller." },
  ];
  if (opts.devRoutes) tags.push({ name: "Development", description: "Non-production helpers." });

  return {
    openapi: "3.1.0",
    info: {
      title: "Agentic API",
      version: "1.0.0",
      license: { name: "Proprietary: all rights reserved (UNLICENSED)" },
      summary: "A capability router for AI agents.",
      description:
        "Capability-first gateway for paid third-party APIs. Ask for a capability (`email.send`, `search.answer`), never a vendor: " +
        "read the catalog and the capability contract, ask for a recommendation, execute, then check the execution, the wallet and usage. " +
        "Billing is in credits (1000 credits = 1 USD). Recommend, execute, executions, wallet and usage need `Authorization: Bearer aak_...`. " +
        "Each API key has a request rate and a cap of requests in flight, advertised on every authenticated answer in the RateLimit-Policy and RateLimit headers; " +
        "over either, 429 with Retry-After. A saturated gateway refuses new requests at once with 503 OVERLOADED and Retry-After.",
    },
    servers: [{ url: basePath, description: "This deployment." }],
    externalDocs: { description: "Agent instructions generated from the live catalog (llms.txt beside it).", url: `${basePath}/SKILL.md` },
    tags,
    paths: {
      ...catalogPaths(ex),
      ...routingPaths(ex),
      ...executionPaths(ex),
      ...walletPaths(ex),
      ...(opts.devRoutes ? developmentPaths(ex) : {}),
    },
    components: {
      schemas: {
        ...answers(
          "DomainCatalogEntry",
          "CapabilityCatalogEntry",
          "RouteCatalogEntry",
          "CapabilityContract",
          "CapabilityOperationContract",
          "CapabilityFieldContract",
        ),
        ...catalogSchemas(),
        RecommendationResponse: answered.RecommendationResponse,
        ...routingSchemas(),
        ...answers(
          "RouteTaskResponse",
          "RouteTaskMatch",
          "TaskConstraints",
          "RecommendationCandidate",
          "WorkflowRecommendation",
          "GenericExecutionResponse",
          "RouteDecision",
          "QuoteResponse",
        ),
        ...answers("ExecutionStatusResponse", "Execution", "ExecutionAttempt", "ExecutionResult"),
        WalletResponse: answered.WalletResponse,
        ...walletSchemas(),
        ...answers("TopUpResponse", "UsageResponse", "UsageSummaryResponse", "OverviewResponse", "UsageItem"),
        ...developmentSchemas(ex),
        ...answers("DevInitResponse", "ErrorResponse"),
      } as Record<SchemaName, JsonObject>,
      responses: buildErrorResponses(basePath),
      parameters: buildParameters(),
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "aak_ API key",
          description: "API key from the hosted install flow, sent as `Authorization: Bearer aak_...`.",
        },
      },
    },
  };
}

/** The components declared with zod, converted together so that one used inside another is a `$ref`. */
function answerSchemas(ex: Examples): Record<string, JsonObject> {
  const { ErrorResponse } = errorResponseAnswers();
  const routing = routingAnswers(ex);
  return componentSchemasOf({
    ...routing,
    ...executionAnswers(ex, { GenericExecutionResponse: routing.GenericExecutionResponse, ErrorResponse }),
    ...catalogAnswers(ex),
    ...walletAnswers(ex),
    ...developmentAnswers(ex),
    ErrorResponse,
  });
}
