// Runs a probe script in its own process under the tracing preload (which patches modules for good),
// with spans printed by the console exporter: what the head-sampling tests read back.
import { spawnSync } from "node:child_process";

/** How a probe script hands back what it saw: one line, last, after the spans the exporter printed. */
const PROBE_RESULT_MARK = "RESULT_OF_PROBE";

/** The probe script's last statements: flush the spans, then print `expression` (JSON) as the result. */
export const printProbeResult = (expression: string): string =>
  `await require("@agentic/platform/telemetry").shutdownTelemetry();\nprocess.stdout.write("\\n${PROBE_RESULT_MARK} " + JSON.stringify(${expression}) + "\\n");`;

export interface TracedChildRun<T> {
  /** The JSON the script printed after PROBE_RESULT_MARK. */
  result: T;
  /** Each exported span's trace id and kind (0 internal, 1 server, 2 client), in the order printed. */
  spans: { traceId: string; kind: number }[];
  /** What the child wrote to stderr. */
  stderr: string;
}

/** Runs `script` (CommonJS) with `node -r @agentic/platform/telemetry`, the console exporter on, `env` over this process's. */
export function runTracedChild<T>(script: string, env: NodeJS.ProcessEnv): TracedChildRun<T> {
  const res = spawnSync(process.execPath, ["-r", "@agentic/platform/telemetry", "-e", script], {
    cwd: __dirname,
    encoding: "utf8",
    env: { ...process.env, OTEL_TRACES_EXPORTER: "console", OTEL_SERVICE_NAME: "probe", ...env },
    timeout: 30_000,
  });
  if (res.status !== 0) throw new Error(`the probe exited with ${res.status ?? res.signal}: ${res.stderr}`);
  // The last mark: the exporter prints the process's arguments, this script (and its mark) included, with each span.
  const line = [...res.stdout.matchAll(new RegExp(`^${PROBE_RESULT_MARK} (.*)$`, "gm"))].at(-1)?.[1];
  if (line === undefined) throw new Error(`the probe printed no result: ${res.stdout.slice(-2_000)}`);
  const spans: TracedChildRun<T>["spans"] = [];
  const pattern = /traceId: '([0-9a-f]{32})'[\s\S]*?kind: (\d)/g;
  for (let m = pattern.exec(res.stdout); m; m = pattern.exec(res.stdout)) spans.push({ traceId: m[1]!, kind: Number(m[2]) });
  return { result: JSON.parse(line) as T, spans, stderr: res.stderr };
}
