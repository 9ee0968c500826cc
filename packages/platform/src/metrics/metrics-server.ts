// Serves prom-client's default registry as Prometheus text on its own port (gRPC services have
// no HTTP server otherwise), plus process metrics (CPU, memory, event-loop lag).
import { createServer, type Server } from "node:http";
import { collectDefaultMetrics, register } from "prom-client";
import { registerBuildInfo } from "./build-info";

let defaultsCollected = false;

/** Starts collecting process metrics, and the build info, once per process. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics();
  registerBuildInfo();
}

/** A JSON endpoint served beside /metrics (GET only): the status and body to answer `url` with. */
export type JsonHandler = (url: URL) => Promise<{ status: number; body: unknown }>;

export interface MetricsServer {
  server: Server;
  port: number;
  close(): Promise<void>;
  /**
   * Serves GET `path` with `handler` on this internal port (e.g. a service's /admin/... reports, which
   * must never be on a public port). An error thrown by the handler answers 500 without its details.
   */
  handle(path: string, handler: JsonHandler): void;
}

/** Listens on `port` (0 for a free one) and answers GET /metrics; resolves the server and port. */
export async function startMetricsServer(port: number, host = "0.0.0.0"): Promise<MetricsServer> {
  collectProcessMetrics();
  const handlers = new Map<string, JsonHandler>();
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    const handler = handlers.get(path);
    if (req.method === "GET" && handler) {
      let answer: { status: number; body: unknown };
      try {
        answer = await handler(new URL(req.url ?? "/", "http://internal"));
      } catch {
        answer = { status: 500, body: { error: "internal error" } };
      }
      res
        .writeHead(answer.status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" })
        .end(JSON.stringify(answer.body));
      return;
    }
    if (req.method !== "GET" || path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    const body = await register.metrics();
    res.writeHead(200, { "content-type": register.contentType }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const bound = (server.address() as { port: number }).port;
  return {
    server,
    port: bound,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    handle(path, handler) {
      if (path === "/metrics") throw new Error("/metrics is the Prometheus endpoint");
      handlers.set(path, handler);
    },
  };
}
