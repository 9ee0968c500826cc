// Adapts `async (request, ctx) => response` handlers to grpc-js's callback style, so every call
// replies exactly once and a thrown error becomes a status (AppErrors keep their code and hint).
import { status, type Metadata, type ServerUnaryCall, type handleUnaryCall, type sendUnaryData } from "@grpc/grpc-js";
import { AppError } from "../errors";
import { isUnansweredCall, toServiceError } from "./status";
import type { Logger } from "../logger";
import type { ServiceName } from "../identity/service-identity";
import { rpcServerDuration, splitRpcPath } from "../metrics/rpc-metrics";

/** Where guardService leaves the caller it verified on the call, for the handler's CallContext. */
export const VERIFIED_CALLER = Symbol("agentic.grpc.verifiedCaller");

/** What a handler may read about the call besides its request. */
export interface CallContext {
  metadata: Metadata;
  /** The calling service as guardService verified it from its token; undefined on an unguarded service. */
  caller?: ServiceName;
  /** Milliseconds left before the caller's deadline; Infinity when it set none. */
  remainingMs(): number;
}

export type UnaryHandler<Req, Res> = (request: Req, ctx: CallContext) => Promise<Res>;

/**
 * Wraps an async handler as a grpc-js unary handler. Unexpected errors are logged, not leaked.
 * Every call is measured in rpc_server_duration_seconds.
 */
export function unary<Req, Res>(handler: UnaryHandler<Req, Res>, logger?: Logger): handleUnaryCall<Req, Res> {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    const { service, method } = splitRpcPath(call.getPath());
    const stopTimer = rpcServerDuration.startTimer({ rpc_service: service, rpc_method: method });
    const deadline = call.getDeadline();
    const deadlineMs = deadline instanceof Date ? deadline.getTime() : Number(deadline);
    const ctx: CallContext = {
      metadata: call.metadata,
      caller: (call as unknown as { [VERIFIED_CALLER]?: ServiceName })[VERIFIED_CALLER],
      remainingMs: () => (Number.isFinite(deadlineMs) && deadlineMs > 0 ? deadlineMs - Date.now() : Infinity),
    };
    handler(call.request, ctx).then(
      (response) => {
        stopTimer({ rpc_grpc_status_code: status.OK });
        callback(null, response);
      },
      (err: unknown) => {
        if (isUnansweredCall(err)) logger?.warn({ err, method: call.getPath() }, "a dependency is unavailable; answered UNAVAILABLE");
        else if (!(err instanceof AppError)) logger?.error({ err, method: call.getPath() }, "unhandled error in gRPC handler");
        const serviceError = toServiceError(err);
        stopTimer({ rpc_grpc_status_code: serviceError.code ?? status.UNKNOWN });
        callback(serviceError);
      },
    );
  };
}
