// The standard gRPC health service (grpc.health.v1). Starts NOT_SERVING; the service flips it to
// SERVING once its dependencies are up, and back first thing on shutdown.
import { credentials, makeGenericClientConstructor, type ChannelOptions, type Client, type Server } from "@grpc/grpc-js";
import { HealthImplementation, service as healthService } from "grpc-health-check";
import { channelOptions } from "./client";

export interface Health {
  /** Sets the status of "" and of every named service. */
  setServing(serving: boolean): void;
  addToServer(server: Server): void;
}

/** Creates the health service for `serviceNames` (full names, e.g. "agentic.ledger.v1.LedgerService"). */
export function createHealth(serviceNames: string[]): Health {
  const names = ["", ...serviceNames];
  const impl = new HealthImplementation(Object.fromEntries(names.map((n) => [n, "NOT_SERVING" as const])));
  return {
    setServing(serving) {
      for (const name of names) impl.setStatus(name, serving ? "SERVING" : "NOT_SERVING");
    },
    addToServer(server) {
      impl.addToServer(server);
    },
  };
}

type HealthClient = Client & {
  check(req: { service: string }, opts: { deadline: number }, cb: (err: Error | null, res?: { status: string }) => void): void;
};
const HealthClientCtor = makeGenericClientConstructor(healthService, "Health") as unknown as new (
  address: string,
  creds: ReturnType<typeof credentials.createInsecure>,
  options?: ChannelOptions,
) => HealthClient;

/** A reusable health-check client for one backend (channels are kept open between checks). */
export function createHealthChecker(address: string, service = "") {
  const client = new HealthClientCtor(address, credentials.createInsecure(), channelOptions());
  return {
    /** Resolves true when the backend answers SERVING within `timeoutMs`. */
    check(timeoutMs = 500): Promise<boolean> {
      return new Promise((resolve) =>
        client.check({ service }, { deadline: Date.now() + timeoutMs }, (err, res) => resolve(!err && res?.status === "SERVING")),
      );
    },
    close: () => client.close(),
  };
}

/** One thing a service needs before it reports SERVING: resolves whether it answers now (never rejects). */
export type DependencyCheck = () => Promise<boolean>;

/** Whether the gRPC service at `address` answers SERVING now. */
export function servingAt(address: string, timeoutMs = 500): DependencyCheck {
  return async () => {
    const checker = createHealthChecker(address);
    try {
      return await checker.check(timeoutMs);
    } finally {
      checker.close();
    }
  };
}

export interface DependencyWaitOptions {
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** The longest wait (ms): after it the service reports SERVING anyway, so a dependency down at start never keeps it from starting (and restarting in a loop). */
  maxWaitMs?: number;
  /** How often the checks that failed are asked again (ms). */
  intervalMs?: number;
  /** Ends the wait early (the service is stopping); resolves with what was still missing. */
  signal?: AbortSignal;
}

/**
 * Resolves once every check answers true (each failing one asked again every `intervalMs`), or
 * after `maxWaitMs` whatever they say, with the names of the checks that never answered (logged).
 * Meant to run beside a started server: health stays NOT_SERVING meanwhile, so no traffic is sent
 * to a service that cannot serve yet, while the process itself answers (its health check included).
 */
export async function whenDependenciesAnswer(checks: Record<string, DependencyCheck>, opts: DependencyWaitOptions): Promise<string[]> {
  const { maxWaitMs = 30_000, intervalMs = 250, logger, signal } = opts;
  const until = Date.now() + maxWaitMs;
  let missing = Object.keys(checks);
  for (;;) {
    const answers = await Promise.all(missing.map(async (name) => [name, await checks[name]!().catch(() => false)] as const));
    missing = answers.filter(([, ok]) => !ok).map(([name]) => name);
    if (missing.length === 0 || signal?.aborted || Date.now() >= until) break;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  if (missing.length && !signal?.aborted) logger.warn({ missing, waitedMs: maxWaitMs }, "dependencies not answering; serving anyway");
  else if (!missing.length) logger.info({ dependencies: Object.keys(checks) }, "dependencies answer");
  return missing;
}
