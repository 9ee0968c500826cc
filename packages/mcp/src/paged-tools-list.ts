// tools/list in pages, with the protocol's cursor: a catalog of thousands of capabilities is
// thousands of tools, more than one answer should carry. A page holds `pageSize` tools in tool-set
// order; `nextCursor` names the tool set's (catalog) version and where the next page starts, so a
// walk never mixes two versions: a cursor of an older version is refused with InvalidParams (the
// protocol's answer to a cursor it cannot use) saying to list again, and the client's list_changed
// notification has already said so. The tools are listed as McpServer lists them (name, title,
// description, schemas marked draft-07 as its zod conversion marks them, annotations, execution,
// _meta), from the tool set's own JSON Schemas: the test compares the two.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, ListToolsRequestSchema, McpError, type ListToolsResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolDef, ToolSet } from "./tool-set";

/** Tools per tools/list page by default: today's catalog (about 120 tools) still lists in one page. */
export const TOOLS_PAGE_SIZE = 200;

interface ToolsCursor {
  /** Tool set version. */
  v: string;
  /** Index of the next tool. */
  o: number;
}

/**
 * Answers tools/list on `server` page by page, from the tool set `current()` returns at each request.
 * Call it after the tools are registered (McpServer installs its own tools/list on the first one).
 */
export function pageToolsList(server: McpServer, current: () => ToolSet, pageSize = TOOLS_PAGE_SIZE): void {
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error(`the tools/list page size must be a positive integer, not ${pageSize}`);
  server.server.setRequestHandler(ListToolsRequestSchema, (request): ListToolsResult => {
    const set = current();
    const cursor = request.params?.cursor;
    const start = cursor === undefined ? 0 : offsetOf(cursor, set.version);
    const end = start + pageSize;
    const tools = listedTools(set).slice(start, end);
    return end < set.tools.length ? { tools, nextCursor: encode({ v: set.version, o: end }) } : { tools };
  });
}

const JSON_SCHEMA_DRAFT = "http://json-schema.org/draft-07/schema#";
/** What McpServer says of a tool registered without task support (every tool here). */
const EXECUTION: Tool["execution"] = { taskSupport: "forbidden" };

/** The listing of each tool set, built on its first tools/list. */
const listings = new WeakMap<ToolSet, Tool[]>();
function listedTools(set: ToolSet): Tool[] {
  let tools = listings.get(set);
  if (!tools) {
    tools = set.tools.map(listed);
    listings.set(set, tools);
  }
  return tools;
}

/** A tool as tools/list shows it. */
function listed(def: ToolDef): Tool {
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: { $schema: JSON_SCHEMA_DRAFT, ...def.inputSchema } as unknown as Tool["inputSchema"],
    annotations: def.annotations,
    execution: EXECUTION,
    _meta: def._meta,
    outputSchema: { $schema: JSON_SCHEMA_DRAFT, ...def.outputSchema } as unknown as Tool["outputSchema"],
  };
}

function offsetOf(cursor: string, version: string): number {
  const state = decode(cursor);
  if (!state)
    throw new McpError(ErrorCode.InvalidParams, "Invalid cursor: not a cursor of tools/list. List the tools again without a cursor.");
  if (state.v !== version)
    throw new McpError(
      ErrorCode.InvalidParams,
      "Invalid cursor: the tools changed since it was given. List the tools again without a cursor.",
    );
  return state.o;
}

function encode(state: ToolsCursor): string {
  return Buffer.from(JSON.stringify(state)).toString("base64url");
}

function decode(cursor: string): ToolsCursor | undefined {
  try {
    const state = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Partial<ToolsCursor>;
    return typeof state.v === "string" && Number.isSafeInteger(state.o) && state.o! >= 0 ? (state as ToolsCursor) : undefined;
  } catch {
    return undefined;
  }
}
