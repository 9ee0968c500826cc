// @agentic-api/mcp: the Agentic API as an MCP server. `agentic-api-mcp` (stdio.ts) runs it locally;
// hosts such as the gateway serve it over Streamable HTTP with StatelessMcpServer.
export { StatelessMcpServer, type StatelessMcpOptions, type StatelessCall } from "./http";
export { startStdioServer, STDIO_KEY_HINT, DEFAULT_REFRESH_MS, type StdioServerHandle } from "./stdio";
export { LiveToolSet } from "./live-tool-set";
export { DEFAULT_GENERIC_TOOLS_ABOVE } from "./generic-tools-threshold";
export { readCatalog, executableRoutes, type CatalogView, type CatalogCapability } from "./catalog";
export { buildToolSet, toolName, type ToolSet, type ToolDef, type ToolAction, type CapabilityTools } from "./tool-set";
export { apiKeyFingerprint, canonicalJson, deriveIdempotencyKey, DERIVED_KEY_WINDOW } from "./idempotency";
export { executeInputSchema, recommendInputSchema, fieldSchema, type JsonSchema } from "./contract-schema";
export { newMcpServer, registerToolSet, ToolRegistry, INSTRUCTIONS, SERVER_NAME } from "./server";
export { TOOLS_PAGE_SIZE } from "./paged-tools-list";
export { PACKAGE_VERSION } from "./version";
