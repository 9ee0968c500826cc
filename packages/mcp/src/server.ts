// The MCP server of one connection: an McpServer (the official SDK) with the tools of a ToolSet,
// each calling runTool with the connection's context. The input and output schemas are the JSON
// Schemas the tool set holds: McpServer takes zod schemas, so each is handed over as an open zod
// object carrying the JSON Schema as its metadata, which zod's JSON Schema output returns as is; the
// arguments are checked by runTool and the API, not by zod.
import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { JsonSchema } from "./contract-schema";
import { runTool, type CallContext } from "./handlers";
import type { ToolDef, ToolSet } from "./tool-set";
import { DERIVED_KEY_WINDOW } from "./idempotency";
import { pageToolsList, TOOLS_PAGE_SIZE } from "./paged-tools-list";

export const SERVER_NAME = "agentic-api";

export const INSTRUCTIONS = [
  "Agentic API: capabilities (email, search, web, geo, models, ...) routed to providers and paid from a credit wallet (1000 credits = 1 USD).",
  "Discover with list_domains, list_capability_tools and get_capability_contract (free).",
  "Call a capability's _recommend tool (free) before its _execute tool (paid): it shows the route that would run and its price.",
  `Execute retries are safe: an identical call within ${DERIVED_KEY_WINDOW} replays the first result instead of paying again; pass a new idempotencyKey only to repeat an action on purpose.`,
  "Never claim an execution succeeded unless the tool returned success; failures come back as tool errors with the API's code and hint.",
].join(" ");

/** The open zod object standing for each JSON Schema (one per schema object, so one per tool set). */
const zodOf = new WeakMap<JsonSchema, z.ZodType>();
function asZod(schema: JsonSchema): z.ZodType {
  let found = zodOf.get(schema);
  if (!found) {
    found = z.looseObject({}).meta(schema);
    zodOf.set(schema, found);
  }
  return found;
}

export function newMcpServer(version: string): McpServer {
  return new McpServer(
    { name: SERVER_NAME, title: "Agentic API", version },
    {
      instructions: INSTRUCTIONS,
      capabilities: { tools: { listChanged: true } },
      // A catalog change re-registers every tool: the client hears of it once, not once per tool.
      debouncedNotificationMethods: ["notifications/tools/list_changed"],
    },
  );
}

/**
 * Registers every tool of `set` on `server`; `context` gives each call its client and key. tools/list
 * answers `toolsPageSize` tools a page (paged-tools-list.ts).
 */
export function registerToolSet(
  server: McpServer,
  set: ToolSet,
  context: (signal: AbortSignal) => CallContext,
  toolsPageSize = TOOLS_PAGE_SIZE,
): Map<string, RegisteredTool> {
  const registered = new Map<string, RegisteredTool>();
  for (const def of set.tools) registered.set(def.name, registerTool(server, def, set, context));
  // McpServer installs its own tools/list with the first tool: this one replaces it.
  if (set.tools.length > 0) pageToolsList(server, () => set, toolsPageSize);
  return registered;
}

function registerTool(server: McpServer, def: ToolDef, set: ToolSet, context: (signal: AbortSignal) => CallContext): RegisteredTool {
  return server.registerTool(
    def.name,
    {
      title: def.title,
      description: def.description,
      inputSchema: asZod(def.inputSchema),
      outputSchema: asZod(def.outputSchema),
      annotations: def.annotations,
      ...(def._meta ? { _meta: def._meta } : {}),
    },
    (args: unknown, extra) => runTool(def, set, (args ?? {}) as Record<string, unknown>, context(extra.signal)),
  );
}

/** Keeps a long-lived server's tools those of the latest tool set (stdio). */
export class ToolRegistry {
  private registered = new Map<string, RegisteredTool>();
  private current: ToolSet | undefined;

  constructor(
    private readonly server: McpServer,
    private readonly context: (signal: AbortSignal) => CallContext,
    private readonly toolsPageSize = TOOLS_PAGE_SIZE,
  ) {}

  get version(): string | undefined {
    return this.current?.version;
  }

  /** Replaces every tool with those of `set`; a connected client gets one notifications/tools/list_changed. */
  apply(set: ToolSet): void {
    if (set.version === this.current?.version) return;
    for (const tool of this.registered.values()) tool.remove();
    this.registered = registerToolSet(this.server, set, this.context, this.toolsPageSize);
    this.current = set;
  }
}
