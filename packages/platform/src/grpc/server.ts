// gRPC server bootstrap: creation with sane limits, binding, and graceful stop.
import { Server, ServerCredentials, type ServerOptions } from "@grpc/grpc-js";

/**
 * Options every service's server uses: keepalive keeps idle channels from long-lived clients
 * healthy, and a maximum connection age makes clients reconnect now and then, re-resolving DNS,
 * so pods added by a scale-out start receiving calls.
 */
export const SERVER_OPTIONS: ServerOptions = {
  "grpc.max_connection_age_ms": 5 * 60_000,
  "grpc.max_connection_age_grace_ms": 30_000,
  "grpc.keepalive_time_ms": 30_000,
  "grpc.keepalive_timeout_ms": 10_000,
  "grpc.keepalive_permit_without_calls": 1,
  "grpc.max_receive_message_length": 4 * 1024 * 1024,
};

export function createGrpcServer(options: ServerOptions = {}): Server {
  return new Server({ ...SERVER_OPTIONS, ...options });
}

/** Binds `server` to `address` ("0.0.0.0:50051", or port 0 for a free port); resolves the bound port. */
export function bindServer(server: Server, address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(address, ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port)));
  });
}

/** Stops accepting calls and waits for in-flight ones; forces shutdown after `timeoutMs`. */
export function stopServer(server: Server, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, timeoutMs);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
