// Flushes traces at shutdown, when the telemetry preload (`--require @agentic/platform/telemetry`)
// ran. Never loads it from here: starting the SDK after grpc-js and http were loaded would trace nothing.

/** Calls the preloaded SDK's shutdown, or does nothing when telemetry was not preloaded. */
export async function shutdownTelemetryIfLoaded(): Promise<void> {
  let path: string;
  try {
    path = require.resolve("@agentic/platform/telemetry");
  } catch {
    return;
  }
  const preloaded = require.cache[path]?.exports as { shutdownTelemetry?: () => Promise<void> } | undefined;
  await preloaded?.shutdownTelemetry?.();
}
