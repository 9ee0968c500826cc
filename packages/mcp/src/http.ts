// The MCP server over Streamable HTTP, stateless (no session: any replica can answer any request).
// Each request gets a fresh McpServer with the tools of the current catalog version (built once per
// version) and a fresh transport, both closed with the request. The host authenticates the request and says how to reach
// the API; the tools call it with the caller's key and the headers the host forwards (such as the
// trace context), so a tool call is an ordinary REST request of that caller.
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { AgenticApiClient } from "@agentic-api/sdk";
import { apiKeyFingerprint } from "./idempotency";
import { LiveToolSet } from "./live-tool-set";
import { errorOf } from "./results";
import { newMcpServer, registerToolSet } from "./server";
import { unavailableToolSet, type ToolSet } from "./tool-set";
import { PACKAGE_VERSION } from "./version";

export interface StatelessMcpOptions {
  /** The API the tools call, base path included (the host's own REST API). */
  baseUrl: string;
  /**
   * How long a check of the catalog version stands, in ms (default 1000). The gateway's own catalog
   * answers follow a new version within its CATALOG_REFRESH_MS (2 s by default), so checking at
   * every request would buy no fresher tools, only a round trip per request.
   */
  recheckMs?: number;
  /** Tools per tools/list page (default TOOLS_PAGE_SIZE). */
  toolsPageSize?: number;
  /** Past this many capabilities only the generic tools are listed (default DEFAULT_GENERIC_TOOLS_ABOVE). */
  genericToolsAbove?: number;
}

export interface StatelessCall {
  /** The caller's API key, authenticated by the host. */
  apiKey: string;
  /** Sent with every API request the tools make for this call (e.g. traceparent). */
  headers?: Record<string, string>;
}

/**
 * The tools a request needs registered: for a single tools/call of a known tool that tool alone (a
 * server lives for one request, and registering every tool costs more than the call's own work),
 * else all of them.
 */
function onlyTheCalledTool(set: ToolSet, body: unknown): ToolSet {
  const message = body as { method?: unknown; params?: { name?: unknown } } | null;
  if (typeof message !== "object" || message === null || Array.isArray(message) || message.method !== "tools/call") return set;
  const tool = set.tools.find((t) => t.name === message.params?.name);
  return tool ? { ...set, tools: [tool] } : set;
}

export class StatelessMcpServer {
  private readonly tools: LiveToolSet;

  constructor(private readonly opts: StatelessMcpOptions) {
    this.tools = new LiveToolSet(new AgenticApiClient({ baseUrl: opts.baseUrl }), opts.recheckMs ?? 1_000, opts.genericToolsAbove);
  }

  /** Answers one MCP POST; `body` is its parsed JSON. */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown, call: StatelessCall): Promise<void> {
    const client = new AgenticApiClient({ baseUrl: this.opts.baseUrl, apiKey: call.apiKey, headers: call.headers ?? {} });
    const keyFingerprint = apiKeyFingerprint(call.apiKey);
    const server = newMcpServer(PACKAGE_VERSION);
    registerToolSet(
      server,
      onlyTheCalledTool(await this.toolSet(), body),
      (signal) => ({
        client,
        keyFingerprint,
        missingKeyHint: "Send the header 'Authorization: Bearer aak_...' with your API key.",
        signal,
      }),
      this.opts.toolsPageSize,
    );
    // JSON answers rather than an event stream: a stateless request has nothing to stream after its answer.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.once("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** The current tools; while the catalog cannot be read, the fixed tools, whose discovery tools say why. */
  private async toolSet(): Promise<ToolSet> {
    try {
      return await this.tools.current();
    } catch (err) {
      return unavailableToolSet(errorOf(err));
    }
  }
}
