import { connect } from "nats";
import { startNatsServer } from "./nats-server";
import { EXECUTIONS_STREAM, ensureExecutionsStream } from "../bus/executions-stream";
import { existsSync } from "node:fs";

describe("startNatsServer", () => {
  it("starts a JetStream server on a random port and removes its store on stop", async () => {
    const nats = await startNatsServer();
    try {
      const nc = await connect({ servers: nats.url });
      const jsm = await nc.jetstreamManager();
      await ensureExecutionsStream(jsm);
      await ensureExecutionsStream(jsm); // idempotent
      const info = await jsm.streams.info(EXECUTIONS_STREAM);
      expect(info.config.subjects).toEqual(["executions.>"]);
      await nc.close();
    } finally {
      await nats.stop();
    }
    expect(existsSync(nats.storeDir)).toBe(false);
  });
});
