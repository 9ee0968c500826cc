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

export interface MetricsServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** Listens on `port` (0 for a free one) and answers GET /metrics; resolves the server and port. */
export async function startMetricsServer(port: number, host = "0.0.0.0"): Promise<MetricsServer> {
  collectProcessMetrics();
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
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
  };
}
