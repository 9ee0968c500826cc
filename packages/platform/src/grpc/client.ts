// Client side of gRPC: long-lived channels with keepalive, promise-returning calls with deadlines.
import {
  credentials,
  InterceptingCall,
  Metadata,
  type CallOptions,
  type ChannelOptions,
  type Client,
  type ClientOptions,
  type ClientUnaryCall,
  type Interceptor,
  type ServiceError,
} from "@grpc/grpc-js";
import { headSampledClientMethod } from "../telemetry/grpc-head-sampling";
import { IDENTITY_METADATA, type CallIdentity } from "../identity/service-identity";
import { grpcTimings } from "./timings";

/** Longest a channel waits between two tries to reconnect to a backend that is down (grpc-js's default is 120 s). */
export const MAX_RECONNECT_BACKOFF_MS = 5_000;

/**
 * Channel options for every client: keepalive (timings.ts), so a long-lived channel notices a dead
 * peer; round_robin over every address DNS returns (headless Services list each pod), so scaling a
 * backend out spreads calls instead of pinning each channel to one pod; and a reconnect backoff
 * capped at MAX_RECONNECT_BACKOFF_MS, so a backend that comes back after a long outage is used
 * again within seconds (what the 503's Retry-After promises), not after grpc-js's two minutes.
 */
export function channelOptions(env: NodeJS.ProcessEnv = process.env): ChannelOptions {
  const timings = grpcTimings(env);
  return {
    "grpc.service_config": JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
    "grpc.keepalive_time_ms": timings.keepaliveTimeMs,
    "grpc.keepalive_timeout_ms": timings.keepaliveTimeoutMs,
    "grpc.keepalive_permit_without_calls": 1,
    "grpc.enable_retries": 1,
    "grpc.max_reconnect_backoff_ms": MAX_RECONNECT_BACKOFF_MS,
  };
}

type ClientConstructor<C> = new (address: string, creds: ReturnType<typeof credentials.createInsecure>, options?: ClientOptions) => C;

/** Attaches `identity`'s token for the called service to every call (grpc-js allows call credentials on TLS channels only). */
export function identityInterceptor(identity: CallIdentity): Interceptor {
  return (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        metadata.set(IDENTITY_METADATA, `Bearer ${identity.tokenFor(options.method_definition.path)}`);
        next(metadata, listener);
      },
    });
}

/**
 * Creates a generated client for `address` (host:port) over an insecure channel (mesh or loopback);
 * with `identity`, every call proves which service makes it (see identity/service-identity.ts).
 */
export function createClient<C extends Client>(Ctor: ClientConstructor<C>, address: string, identity?: CallIdentity): C {
  return new Ctor(address, credentials.createInsecure(), {
    ...channelOptions(),
    ...(identity ? { interceptors: [identityInterceptor(identity)] } : {}),
  });
}

/**
 * Resolves once `client`'s channel is connected, or rejects after `deadlineMs`. A caller that awaits
 * it at start keeps its first call's deadline for the call, not for connecting on a loaded machine.
 */
export function channelReady(client: Client, deadlineMs: number): Promise<void> {
  return new Promise((resolve, reject) => client.waitForReady(Date.now() + deadlineMs, (err) => (err ? reject(err) : resolve())));
}

type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

export interface CallOpts {
  /** Deadline from now, in ms. */
  deadlineMs?: number;
  metadata?: Metadata;
}

/**
 * Turns one generated unary method into `(request, opts) => Promise<response>` with a deadline.
 * Trace context travels in the metadata: through the gRPC instrumentation (services preload it) in
 * a trace head sampling keeps, written directly in one it leaves out (telemetry/grpc-head-sampling.ts).
 */
export function promisifyUnary<Req, Res>(client: Client, method: UnaryMethod<Req, Res>, defaultDeadlineMs = 2_000) {
  const bound = headSampledClientMethod(method).bind(client);
  return (request: Req, opts: CallOpts = {}): Promise<Res> =>
    new Promise((resolve, reject) => {
      bound(request, opts.metadata ?? new Metadata(), { deadline: Date.now() + (opts.deadlineMs ?? defaultDeadlineMs) }, (err, res) =>
        err ? reject(err) : resolve(res),
      );
    });
}
