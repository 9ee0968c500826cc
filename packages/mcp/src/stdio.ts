// The local MCP server: stdio, for `npx agentic-api-mcp` in an MCP client's config. Configured by
// AGENTIC_API_BASE_URL and AGENTIC_API_KEY (AGENTIC_MCP_REFRESH_MS: how often the catalog version
// is checked; MCP_GENERIC_TOOLS_ABOVE: past this many capabilities, only the generic tools). Its
// tools call the REST API with the SDK client. When the catalog version changes the
// tools are rebuilt and the client gets notifications/tools/list_changed. Without a key the server
// still starts: discovery works, and recommend and execute say how to set the key. Logs go to
// stderr: stdout carries the protocol.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { AgenticApiClient, DEFAULT_AGENTIC_API_BASE_URL } from "@agentic-api/sdk";
import { apiKeyFingerprint } from "./idempotency";
import { LiveToolSet } from "./live-tool-set";
import { errorOf } from "./results";
import { ToolRegistry, newMcpServer } from "./server";
import { DEFAULT_GENERIC_TOOLS_ABOVE } from "./generic-tools-threshold";
import { unavailableToolSet } from "./tool-set";
import { PACKAGE_VERSION } from "./version";

export const DEFAULT_REFRESH_MS = 60_000;

export const STDIO_KEY_HINT =
  'Set AGENTIC_API_KEY (aak_...) in this MCP server\'s environment, e.g. "env": {"AGENTIC_API_KEY": "aak_..."} in your MCP client\'s configuration, and restart it.';

export interface StdioServerHandle {
  /** Stops the catalog checks and closes the server. */
  close(): Promise<void>;
  /** Settles once the server is closed: by close(), or by the client closing stdin. */
  closed: Promise<void>;
}

/** MCP_GENERIC_TOOLS_ABOVE: past this many capabilities only the generic tools are listed. */
function genericToolsAboveOf(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_GENERIC_TOOLS_ABOVE;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0)
    throw new Error(`MCP_GENERIC_TOOLS_ABOVE must be a whole number of capabilities, not "${value}"`);
  return count;
}

function refreshMsOf(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_REFRESH_MS;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 100) throw new Error(`AGENTIC_MCP_REFRESH_MS must be an integer of at least 100 (ms), not "${value}"`);
  return ms;
}

export async function startStdioServer(
  env: NodeJS.ProcessEnv,
  log: (line: string) => void = (line) => process.stderr.write(`agentic-api-mcp: ${line}\n`),
): Promise<StdioServerHandle> {
  const baseUrl = env.AGENTIC_API_BASE_URL?.trim() || DEFAULT_AGENTIC_API_BASE_URL;
  const apiKey = env.AGENTIC_API_KEY?.trim() || undefined;
  const refreshMs = refreshMsOf(env.AGENTIC_MCP_REFRESH_MS);
  if (!apiKey) log("AGENTIC_API_KEY is not set: the catalog tools work; recommend and execute answer AGENTIC_API_KEY_REQUIRED.");

  const client = new AgenticApiClient({ baseUrl, ...(apiKey ? { apiKey } : {}) });
  const keyFingerprint = apiKey ? apiKeyFingerprint(apiKey) : undefined;
  const server = newMcpServer(PACKAGE_VERSION);
  const registry = new ToolRegistry(server, (signal) => ({ client, keyFingerprint, missingKeyHint: STDIO_KEY_HINT, signal }));
  const live = new LiveToolSet(client, 0, genericToolsAboveOf(env.MCP_GENERIC_TOOLS_ABOVE));

  let failing = false;
  const refresh = async () => {
    try {
      registry.apply(await live.current());
      if (failing) log(`the catalog at ${baseUrl} is readable again.`);
      failing = false;
    } catch (err) {
      const error = errorOf(err);
      if (!failing) log(`cannot read the catalog at ${baseUrl} (${error.code}: ${error.error}); trying again every ${refreshMs} ms.`);
      failing = true;
      // Before the first read the discovery tools say why; after it the tools of the last version stay.
      if (registry.version === undefined) {
        registry.apply(
          unavailableToolSet({
            ...error,
            hint: `Check that AGENTIC_API_BASE_URL (${baseUrl}) points at the Agentic API (…/api/agentic-api).`,
          }),
        );
      }
    }
  };
  await refresh();
  const timer = setInterval(() => void refresh(), refreshMs);

  const transport = new StdioServerTransport();
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      clearInterval(timer);
      await server.close();
    })();
    return closing;
  };
  // The client ends the server by closing its stdin.
  process.stdin.once("end", () => void close());
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => {
      clearInterval(timer);
      resolve();
    };
  });
  await server.connect(transport);
  return { close, closed };
}
