// POST <base>/mcp: the Agentic API as a remote MCP server (Streamable HTTP, stateless, so any replica
// answers any request; GET and DELETE, which only sessions use, answer 405). It takes the same Bearer
// API keys as the REST routes, with the same 401 answers and per-IP budget for requests without a
// valid key. Each request is served by @agentic-api/mcp, whose tools call this gateway's own REST
// API on the address the request came in on, with the caller's key and the request's trace context:
// every tool call is an ordinary REST request of that caller (rate limits per key, load shedding,
// validation, money rules, usage), in the same trace as the MCP request.
//
// The MCP requests themselves are held to the key's limits in a bucket of their own ("mcp:<keyId>"):
// a tool call is an MCP request that makes a REST request, and sharing one bucket would count it
// twice and let the MCP request hold the in-flight slot its own REST request needs.
import type { IncomingMessage } from "node:http";
import { Router, type Request, type RequestHandler, type Response } from "express";
import { traceHeaders } from "@agentic/platform";
import { StatelessMcpServer } from "@agentic-api/mcp";
import { parseBearer } from "../middleware/auth";
import { limitCallers, type CallerLimits } from "../limits/limit-callers";

export interface McpRoutesOptions {
  /** Authenticates the bearer key and sets res.locals.caller (requireApiKey). */
  authenticate: RequestHandler;
  /** The per-caller limits of the authenticated routes. */
  callers: CallerLimits;
  /** Past this many capabilities tools/list answers the generic tools only (MCP_GENERIC_TOOLS_ABOVE). */
  genericToolsAbove: number;
}

/** The caller counted in the MCP requests' own bucket (a copy: the authenticated caller is cached and shared). */
function inMcpBucket(authenticate: RequestHandler): RequestHandler {
  return (req, res, next) =>
    authenticate(req, res, (err?: unknown) => {
      if (!err && res.locals.caller) res.locals.caller = { ...res.locals.caller, keyId: `mcp:${res.locals.caller.keyId}` };
      next(err);
    });
}

/** This server as the request reached it: the tools' REST requests go back to the same address and port. */
function ownBaseUrl(req: Request): string {
  const address = (req.socket.localAddress ?? "127.0.0.1").replace(/^::ffff:/, "");
  const host = address.includes(":") ? `[${address}]` : address;
  return `http://${host}:${req.socket.localPort}${req.baseUrl}`;
}

/** The trace context to send on: the active span's (a child of this request's), else the caller's as it came. */
function traceContext(req: IncomingMessage): Record<string, string> {
  const active = traceHeaders();
  const out: Record<string, string> = {};
  for (const name of ["traceparent", "tracestate"]) {
    const value = active.get(name) || req.headers[name];
    if (typeof value === "string" && value !== "") out[name] = value;
  }
  return out;
}

const methodNotAllowed = (_req: Request, res: Response) => {
  res.setHeader("Allow", "POST");
  res
    .status(405)
    .json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP server is stateless; send POST." }, id: null });
};

export function mcpRoutes(opts: McpRoutesOptions): Router {
  const router = Router();
  const auth = limitCallers(inMcpBucket(opts.authenticate), opts.callers);
  let server: StatelessMcpServer | undefined;
  router.post("/mcp", auth, async (req, res) => {
    server ??= new StatelessMcpServer({ baseUrl: ownBaseUrl(req), genericToolsAbove: opts.genericToolsAbove });
    const bearer = parseBearer(req.headers.authorization);
    if (!("key" in bearer)) throw new Error("an authenticated MCP request carries no bearer key");
    await server.handle(req, res, req.body, { apiKey: bearer.key, headers: traceContext(req) });
  });
  router.get("/mcp", methodNotAllowed);
  router.delete("/mcp", methodNotAllowed);
  return router;
}
