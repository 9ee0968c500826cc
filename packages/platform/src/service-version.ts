// The version a running service reports (service.version on its spans, agentic_build_info on its
// /metrics): SERVICE_VERSION, which each image sets from its VERSION build arg, the same value as
// the image's org.opencontainers.image.version label. "dev" outside an image.

export function serviceVersion(env: NodeJS.ProcessEnv = process.env): string {
  return env.SERVICE_VERSION?.trim() || "dev";
}
