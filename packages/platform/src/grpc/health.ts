// The standard gRPC health service (grpc.health.v1). Starts NOT_SERVING; the service flips it to
// SERVING once its dependencies are up, and back first thing on shutdown.
import { credentials, makeGenericClientConstructor, type ChannelOptions, type Client, type Server } from "@grpc/grpc-js";
import { HealthImplementation, service as healthService } from "grpc-health-check";
import { CHANNEL_OPTIONS } from "./client";

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
  const client = new HealthClientCtor(address, credentials.createInsecure(), CHANNEL_OPTIONS);
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
