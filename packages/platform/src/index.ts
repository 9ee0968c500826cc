// @agentic/platform: what every service shares, and nothing else.
export * from "./config";
export * from "./logger";
export * from "./ids";
export * from "./errors";
export * from "./lifecycle";
export * from "./grpc/unary";
export * from "./grpc/server";
export * from "./grpc/health";
export * from "./grpc/client";
export * from "./telemetry/attributes";
export * from "./telemetry/trace-id";
export * from "./bus/executions-stream";
export * from "./bus/trace-headers";
export * from "./bus/connect";
export * from "./metrics/rpc-metrics";
export * from "./metrics/metrics-server";
export * from "./bus/message-spans";
