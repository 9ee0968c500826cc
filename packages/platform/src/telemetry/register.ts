// Preload entry: `node --require @agentic/platform/telemetry dist/main.js` starts tracing before
// any instrumented module (grpc-js, http, express, mongodb) is loaded.
import { startTelemetry } from "./start-telemetry";

const sdk = startTelemetry(process.env.OTEL_SERVICE_NAME ?? "agentic");

/** Flushes and stops the SDK; services call it as their last stop hook. */
export async function shutdownTelemetry(): Promise<void> {
  await sdk?.shutdown();
}
