// @agentic/platform/core: the pure part of the platform (no gRPC, NATS, HTTP server or telemetry
// SDK), which domain code may import: the error type and its kinds, the HTTP status table, ids,
// canonical JSON, call deadlines, the agent-name rule.
export * from "./agent-name";
export * from "./call-deadline";
export * from "./errors";
export * from "./http-status";
export * from "./ids";
export * from "./canonical-json";
