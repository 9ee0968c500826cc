// The standard gRPC health service (grpc.health.v1). Starts NOT_SERVING; the service flips it to
// SERVING once its dependencies are up, and back first thing on shutdown.
import type { Server } from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";

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
