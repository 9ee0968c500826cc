// Express's route-handler span is made in a sampled trace, as before; in a trace head sampling left
// out, none is made and no layer enters the express instrumentation at all (nothing of that trace is
// exported either way, so only the CPU differs). Runs in its own process: the tracing preload patches
// modules for good.
import { spawnSync } from "node:child_process";

const SAMPLED = "0af7651916cd43dd8448eb211c80319c";
const UNSAMPLED = "4bf92f3577b34da6a3ce929d0e0e4736";

/** Serves GET /api/things/:id under the tracing preload, sends one sampled and one unsampled request, prints the exported spans. */
const CHILD = `
const net = require("node:net");
const express = require("express");
const app = express();
// Mounted as the gateway mounts its routes: a route in a router, under a base path, behind a middleware.
const api = express.Router();
api.use((req, res, next) => next());
// The instrumentation's layer wrappers record each layer's path on the request: whether any ran.
api.get("/things/:id", (req, res) => res.set("x-entered-instrumentation", String(Array.isArray(req.__ot_middlewares))).json({ id: req.params.id }));
app.use("/api", api);
const server = app.listen(0, "127.0.0.1", async () => {
  // A bare socket: an instrumented http client would send a traceparent of its own.
  const get = (traceId, flags) => new Promise((resolve, reject) => {
    const socket = net.connect(server.address().port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer.split(" ")[1] + " " + /x-entered-instrumentation: (\\w+)/i.exec(answer)?.[1]));
    socket.on("error", reject);
    socket.end("GET /api/things/7 HTTP/1.1\\r\\nHost: probe\\r\\nConnection: close\\r\\ntraceparent: 00-" + traceId + "-b7ad6b7169203331-" + flags + "\\r\\n\\r\\n");
  });
  const statuses = [await get("${SAMPLED}", "01"), await get("${UNSAMPLED}", "00")];
  server.close();
  await require("@agentic/platform/telemetry").shutdownTelemetry();
  process.stdout.write("\\nSTATUSES " + JSON.stringify(statuses) + "\\n");
});
`;

interface PrintedSpan {
  traceId: string;
  name: string;
}

/** The spans the console exporter printed (traceId and name of each). */
function printedSpans(stdout: string): PrintedSpan[] {
  const spans: PrintedSpan[] = [];
  const pattern = /traceId: '([0-9a-f]{32})'[\s\S]*?name: '([^']*)'/g;
  for (let m = pattern.exec(stdout); m; m = pattern.exec(stdout)) spans.push({ traceId: m[1]!, name: m[2]! });
  return spans;
}

describe("express handler spans", () => {
  it("are made in sampled traces as before, and left out of the others", () => {
    const res = spawnSync(process.execPath, ["-r", "@agentic/platform/telemetry", "-e", CHILD], {
      cwd: __dirname,
      encoding: "utf8",
      env: { ...process.env, OTEL_TRACES_EXPORTER: "console", OTEL_TRACES_SAMPLER: "parentbased_always_on", OTEL_SERVICE_NAME: "probe" },
      timeout: 30_000,
    });
    expect(res.status).toBe(0);
    // Both answered; only the sampled one went through the instrumentation's layer wrappers.
    expect(res.stdout).toContain('STATUSES ["200 true","200 false"]');
    const spans = printedSpans(res.stdout);
    // As before: the request's SERVER span named after its route, and express's handler span.
    expect(spans.filter((s) => s.traceId === SAMPLED).map((s) => s.name)).toEqual(["GET /api/things/:id", "request handler"]);
    expect(spans.filter((s) => s.traceId === UNSAMPLED)).toEqual([]);
  });
});
