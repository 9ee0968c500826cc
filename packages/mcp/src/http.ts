// The MCP server over Streamable HTTP, stateless (no session: any replica can answer any request).
// Each request gets a fresh McpServer with the tools of the current catalog version and a fresh
// transport, both closed with the request. The host authenticates the request and says how to reach
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
}

export interface StatelessCall {
  /** The caller's API key, authenticated by the host. */
  apiKey: string;
  /** Sent with every API request the tools make for this call (e.g. traceparent). */
  headers?: Record<string, string>;
}

export class StatelessMcpServer {
  private readonly tools: LiveToolSet;

  constructor(private readonly opts: StatelessMcpOptions) {
    this.tools = new LiveToolSet(new AgenticApiClient({ baseUrl: opts.baseUrl }));
  }

  /** Answers one MCP POST; `body` is its parsed JSON. */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown, call: StatelessCall): Promise<void> {
    const client = new AgenticApiClient({ baseUrl: this.opts.baseUrl, apiKey: call.apiKey, headers: call.headers ?? {} });
    const keyFingerprint = apiKeyFingerprint(call.apiKey);
    const server = newMcpServer(PACKAGE_VERSION);
    registerToolSet(server, await this.toolSet(), (signal) => ({
      client,
      keyFingerprint,
      missingKeyHint: "Send the header 'Authorization: Bearer aak_...' with your API key.",
      signal,
    }));
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
