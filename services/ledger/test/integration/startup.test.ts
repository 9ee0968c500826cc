// Startup order of src/app.ts: the store answers first, then the ledger creates the EXECUTIONS stream
// and its durable consumer itself (callers no longer do), then it consumes.
import { connect } from "nats";
import { EXECUTIONS_STREAM } from "@agentic/platform";
import { startNatsServer, type NatsServerHandle } from "@agentic/testing";
import { SETTLEMENT_DURABLE } from "../../src/bus/settlement-consumer";
import { startTestLedger, openMemoryStore } from "../harness";

/** What exists on a nats-server: the stream's replica count and whether the ledger's durable exists. */
async function jetStreamState(nats: NatsServerHandle): Promise<{ streamReplicas?: number; durable: boolean }> {
  const nc = await connect({ servers: nats.url });
  try {
    const jsm = await nc.jetstreamManager();
    const stream = await jsm.streams.info(EXECUTIONS_STREAM).catch(() => undefined);
    const durable = stream
      ? await jsm.consumers.info(EXECUTIONS_STREAM, SETTLEMENT_DURABLE).then(
          () => true,
          () => false,
        )
      : false;
    return { streamReplicas: stream?.config.num_replicas, durable };
  } finally {
    await nc.close();
  }
}

describe("ledger startup", () => {
  let nats: NatsServerHandle | undefined;
  afterEach(async () => {
    await nats?.stop();
    nats = undefined;
  });

  it("creates the EXECUTIONS stream (1 replica by default) and the durable consumer on a fresh nats-server", async () => {
    nats = await startNatsServer();
    await expect(jetStreamState(nats)).resolves.toEqual({ streamReplicas: undefined, durable: false });
    const ledger = await startTestLedger({ natsUrl: nats.url });
    try {
      await expect(jetStreamState(nats)).resolves.toEqual({ streamReplicas: 1, durable: true });
    } finally {
      await ledger.stop();
    }
  });

  it("a store that does not answer stops the start before anything is created or consumed", async () => {
    nats = await startNatsServer();
    const store = await openMemoryStore();
    store.ping = async () => {
      throw new Error("store unreachable");
    };
    await expect(startTestLedger({ natsUrl: nats.url, store })).rejects.toThrow("store unreachable");
    await expect(jetStreamState(nats)).resolves.toEqual({ streamReplicas: undefined, durable: false });
  });
});
