// gRPC server bootstrap: creation with sane limits, binding, and graceful stop.
import { Server, ServerCredentials, type ServerOptions } from "@grpc/grpc-js";
import { headSampleServer } from "../telemetry/grpc-head-sampling";
import { connectionAgeGraceMs, DEFAULT_LONGEST_CALL_MS, grpcTimings } from "./timings";

export interface GrpcServerSettings {
  /** The longest call this server accepts, in ms: a connection reaching its maximum age waits this long (and a margin) for its calls. */
  longestCallMs?: number;
}

/**
 * Options every service's server uses (timings.ts): keepalive keeps idle channels from long-lived
 * clients healthy, and a maximum connection age makes clients reconnect now and then, re-resolving
 * DNS, so pods added by a scale-out start receiving calls; the calls on a recycled connection keep
 * it for as long as the longest of them may run.
 */
export function serverOptions(settings: GrpcServerSettings = {}, env: NodeJS.ProcessEnv = process.env): ServerOptions {
  const timings = grpcTimings(env);
  return {
    "grpc.max_connection_age_ms": timings.maxConnectionAgeMs,
    "grpc.max_connection_age_grace_ms": connectionAgeGraceMs(settings.longestCallMs ?? DEFAULT_LONGEST_CALL_MS),
    "grpc.keepalive_time_ms": timings.keepaliveTimeMs,
    "grpc.keepalive_timeout_ms": timings.keepaliveTimeoutMs,
    "grpc.keepalive_permit_without_calls": 1,
    "grpc.max_receive_message_length": 4 * 1024 * 1024,
  };
}

/** A server with serverOptions whose handlers are traced as head sampling decides (telemetry/grpc-head-sampling.ts). */
export function createGrpcServer(settings: GrpcServerSettings = {}, options: ServerOptions = {}): Server {
  const server = new Server({ ...serverOptions(settings), ...options });
  headSampleServer(server);
  return server;
}

/** Binds `server` to `address` ("0.0.0.0:50051", or port 0 for a free port); resolves the bound port. */
export function bindServer(server: Server, address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(address, ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port)));
  });
}

/** A stop under way: `closed` resolves once every call has ended; `force()` ends whatever is left now. */
export interface ServerStop {
  closed: Promise<void>;
  force(): void;
}

/**
 * Begins a graceful stop: the server takes no new connection or call, and tells connected clients
 * (HTTP/2 GOAWAY), whose channels then send their next calls to another address of the service;
 * the calls already running go on to their end.
 */
export function beginServerStop(server: Server): ServerStop {
  const closed = new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  return { closed, force: () => server.forceShutdown() };
}

/** Stops accepting calls and waits for in-flight ones; forces shutdown after `timeoutMs`. */
export async function stopServer(server: Server, timeoutMs = 15_000): Promise<void> {
  const stop = beginServerStop(server);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timed out">((resolve) => (timer = setTimeout(() => resolve("timed out"), timeoutMs)));
  if ((await Promise.race([stop.closed, timedOut])) === "timed out") stop.force();
  clearTimeout(timer);
}
