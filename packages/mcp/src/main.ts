#!/usr/bin/env node
// agentic-api-mcp: the Agentic API as an MCP server over stdio (see stdio.ts).
import { startStdioServer } from "./stdio";

startStdioServer(process.env).then(
  // Open HTTP keep-alive sockets to the API must not outlive the client.
  (server) => server.closed.then(() => process.exit(0)),
  (err: unknown) => {
    process.stderr.write(`agentic-api-mcp: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
