// Per-RPC allow-lists over verified service identities. A service wraps its implementation with
// guardService(definition, impl, { table, ... }) before addService: every call must carry a token
// (see identity/service-identity.ts) from a caller its RPC's entry lists. An RPC with no entry is
// refused (fail closed), so a new RPC is closed until someone writes down who may call it.
// The health service is added separately and stays open for probes.
import {
  Metadata,
  type ServerUnaryCall,
  type ServiceDefinition,
  type UntypedServiceImplementation,
  type sendUnaryData,
} from "@grpc/grpc-js";
import { Counter } from "prom-client";
import { AppError } from "../errors";
import { toServiceError } from "./status";
import type { Logger } from "../logger";
import { singleton, splitRpcPath } from "../metrics/rpc-metrics";
import { IDENTITY_METADATA, IdentityError, type ServiceName, type TokenVerifier } from "../identity/service-identity";
import { VERIFIED_CALLER } from "./unary";

/** A caller allowed only while the callee runs with APP_ENV explicitly development or test. */
export interface DevOnlyCaller {
  service: ServiceName;
  devOnly: true;
}
export const devOnly = (service: ServiceName): DevOnlyCaller => ({ service, devOnly: true });

/** Who may call one RPC. */
export type AccessRule = readonly (ServiceName | DevOnlyCaller)[];
/** RPC name as in the .proto (e.g. "GrantCredits") → who may call it. */
export type AccessTable = Readonly<Record<string, AccessRule>>;

export interface GuardOptions {
  table: AccessTable;
  verifier: TokenVerifier;
  /** True only when APP_ENV is explicitly development or test: devOnly callers count then. */
  development: boolean;
  logger?: Logger;
}

/** access_denied_total{rpc_service, rpc_method, reason}: calls refused before their handler ran. */
export const accessDenied = singleton(
  "rpc_server_access_denied_total",
  () =>
    new Counter({
      name: "rpc_server_access_denied_total",
      help: "gRPC calls refused for their caller's identity, by service, method and reason.",
      labelNames: ["rpc_service", "rpc_method", "reason"] as const,
    }),
);

/** The RPC names (as in the .proto) of a service definition, e.g. ["AuthenticateApiKey", ...]. */
export function rpcNames(definition: ServiceDefinition): string[] {
  return Object.values(definition).map((method) => splitRpcPath(method.path).method);
}

/** RPCs of `definition` that `table` does not list: each is refused until it gets an entry. */
export function unlistedRpcs(definition: ServiceDefinition, table: AccessTable): string[] {
  return rpcNames(definition).filter((name) => !Object.hasOwn(table, name));
}

/** Whether `caller` may call an RPC with `rule` (undefined: no entry, nobody may). */
export function isAllowed(rule: AccessRule | undefined, caller: ServiceName, development: boolean): boolean {
  return (rule ?? []).some((entry) => (typeof entry === "string" ? entry === caller : entry.service === caller && development));
}

/** Reads and verifies the caller's token; throws the AppError to answer with. */
function callerOf(metadata: Metadata, audience: string, verifier: TokenVerifier): ServiceName {
  const header = metadata.get(IDENTITY_METADATA)[0]?.toString() ?? "";
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  try {
    if (!token) throw new IdentityError("missing", "the call carries no service token");
    return verifier.verify(token, audience);
  } catch (err) {
    if (!(err instanceof IdentityError)) throw err;
    throw Object.assign(
      new AppError(
        "unauthenticated",
        err.reason === "missing" ? "SERVICE_IDENTITY_REQUIRED" : "SERVICE_IDENTITY_INVALID",
        err.message,
        "Internal calls must carry the calling service's token: give the service its SERVICE_IDENTITY_KEY and this service the matching public key in TRUSTED_SERVICE_KEYS.",
      ),
      { reason: err.reason },
    );
  }
}

/**
 * Wraps every method of `impl` (unary only) with the identity check of `definition`'s table entry.
 * Refusals: no or bad token → UNAUTHENTICATED; a verified caller the entry does not list, or an RPC
 * without an entry → PERMISSION_DENIED. Each is counted and logged, without the token.
 */
export function guardService<I extends UntypedServiceImplementation>(definition: ServiceDefinition, impl: I, opts: GuardOptions): I {
  const unlisted = unlistedRpcs(definition, opts.table);
  if (unlisted.length) opts.logger?.error({ rpcs: unlisted }, "RPCs without an access rule: every call to them is refused");
  const guarded: UntypedServiceImplementation = {};
  for (const [key, method] of Object.entries(definition)) {
    const handler = impl[key];
    if (!handler) continue;
    if (method.requestStream || method.responseStream)
      throw new Error(`guardService: ${method.path} is streaming; only unary RPCs are guarded`);
    const { service, method: rpc } = splitRpcPath(method.path);
    const rule = Object.hasOwn(opts.table, rpc) ? opts.table[rpc] : undefined;
    const unary = handler as (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void;
    guarded[key] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      let caller: ServiceName | undefined;
      try {
        caller = callerOf(call.metadata, service, opts.verifier);
        if (!isAllowed(rule, caller, opts.development)) {
          throw Object.assign(
            new AppError(
              "permission_denied",
              "SERVICE_NOT_ALLOWED",
              rule ? `${caller} may not call ${rpc}` : `${rpc} has no access rule, so nobody may call it`,
              rule ? `Only ${describe(rule)} may call ${rpc}.` : `Add ${rpc} to this service's access table.`,
            ),
            { reason: rule ? "not_allowed" : "no_rule" },
          );
        }
      } catch (err) {
        const reason = (err as { reason?: string }).reason ?? "error";
        accessDenied.inc({ rpc_service: service, rpc_method: rpc, reason });
        opts.logger?.warn({ rpc: method.path, caller, reason }, "call refused for its caller's identity");
        callback(toServiceError(err));
        return;
      }
      // The handler may record who called (an operator's movement names the identity that made it).
      (call as unknown as { [VERIFIED_CALLER]?: ServiceName })[VERIFIED_CALLER] = caller;
      unary(call, callback);
    };
  }
  return { ...impl, ...guarded };
}

function describe(rule: AccessRule): string {
  if (rule.length === 0) return "nobody";
  return rule.map((e) => (typeof e === "string" ? e : `${e.service} (development only)`)).join(", ");
}
