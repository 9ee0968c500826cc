// The largest message the project's NATS servers accept (max_payload), one value for every server it
// starts: the tests' and `npm start`'s (@agentic/testing), and Kubernetes' (deploy/k8s/components/nats/
// nats.conf, checked against this by packages/testing's nats-server test). A capture carries a keyed
// execution's whole answer, so a server with NATS's default 1 MB would refuse the capture of a larger
// answer after the vendor was paid: the executor checks the server at start (assertMaxPayloadFits).
import type { NatsConnection } from "nats";
import { StartupError } from "../errors";

/** max_payload of every NATS server the project runs: 8 MiB (`max_payload: 8MB`), NATS's recommended ceiling. */
export const NATS_MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;

/** The server's max_payload, as its INFO says (0 when not connected yet). */
export function serverMaxPayload(nc: Pick<NatsConnection, "info">): number {
  return nc.info?.max_payload ?? 0;
}

/** Refuses to start (StartupError) when the server cannot carry a message of `neededBytes`; `what` says which. */
export function assertMaxPayloadFits(nc: Pick<NatsConnection, "info">, neededBytes: number, what: string): void {
  const max = serverMaxPayload(nc);
  if (max < neededBytes)
    throw new StartupError(
      `the NATS server accepts messages up to ${max} bytes (max_payload), below the ${neededBytes} bytes of ${what}: ` +
        `set max_payload: 8MB in its configuration (deploy/k8s/components/nats/nats.conf does)`,
    );
}
