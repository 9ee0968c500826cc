// OTEL_NODE_DISABLED_INSTRUMENTATIONS turns an instrumentation off: its module is left unpatched.
// Every span carries service.version (SERVICE_VERSION, the image's version label).
// Each case runs in its own process, since instrumentations patch modules for the whole process.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const TELEMETRY = join(__dirname, "..", "..", "dist", "telemetry", "start-telemetry.js");

/** Whether node:http's request is wrapped by the http instrumentation after startTelemetry. */
function httpPatched(disabled: string): boolean {
  const res = spawnSync(
    process.execPath,
    [
      "-e",
      `const { startTelemetry } = require(${JSON.stringify(TELEMETRY)}); const sdk = startTelemetry("probe");` +
        `const http = require("node:http"); process.stdout.write(String(Boolean(http.request.__wrapped))); sdk?.shutdown();`,
    ],
    { encoding: "utf8", env: { ...process.env, OTEL_NODE_DISABLED_INSTRUMENTATIONS: disabled, OTEL_TRACES_EXPORTER: "none" } },
  );
  expect(res.status).toBe(0);
  return res.stdout === "true";
}

/** What a span's resource says, as the console exporter prints it, in a process with `env`. */
function spanResource(env: NodeJS.ProcessEnv): string {
  const res = spawnSync(
    process.execPath,
    [
      "-e",
      `const { startTelemetry } = require(${JSON.stringify(TELEMETRY)}); const sdk = startTelemetry("probe");` +
        `require("@opentelemetry/api").trace.getTracer("probe").startSpan("probe").end(); sdk.shutdown();`,
    ],
    { encoding: "utf8", env: { ...process.env, OTEL_TRACES_EXPORTER: "console", ...env } },
  );
  expect(res.status).toBe(0);
  return res.stdout;
}

describe("startTelemetry", () => {
  it("puts SERVICE_VERSION on every span as service.version", () => {
    expect(spanResource({ SERVICE_VERSION: "1.4.2-abc123" })).toContain("'service.version': '1.4.2-abc123'");
  });

  it("keeps a service.version that OTEL_RESOURCE_ATTRIBUTES names", () => {
    const resource = spanResource({
      SERVICE_VERSION: "1.4.2",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod,service.version=9.9.9",
    });
    expect(resource).toContain("'service.version': '9.9.9'");
    expect(resource).toContain("'deployment.environment': 'prod'");
  });

  it("patches node:http by default", () => {
    expect(httpPatched("")).toBe(true);
  });

  it("leaves node:http unpatched when OTEL_NODE_DISABLED_INSTRUMENTATIONS names http", () => {
    expect(httpPatched("express, http")).toBe(false);
  });
});
