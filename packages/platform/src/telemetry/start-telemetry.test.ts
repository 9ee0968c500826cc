// OTEL_NODE_DISABLED_INSTRUMENTATIONS turns an instrumentation off: its module is left unpatched.
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

describe("startTelemetry", () => {
  it("patches node:http by default", () => {
    expect(httpPatched("")).toBe(true);
  });

  it("leaves node:http unpatched when OTEL_NODE_DISABLED_INSTRUMENTATIONS names http", () => {
    expect(httpPatched("express, http")).toBe(false);
  });
});
