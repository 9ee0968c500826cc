import { connect } from "nats";
import { natsPassword, startNatsServer } from "./nats-server";
import { EXECUTIONS_STREAM, ensureExecutionsStream } from "@agentic/platform";
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

describe("natsPassword", () => {
  it("always starts with a letter, so the config's $VARIABLE reads it back as text, never as a number", () => {
    // base64url passwords starting with a digit ("9H...") made nats-server refuse its config now and then.
    for (let i = 0; i < 500; i++) expect(natsPassword()).toMatch(/^p[0-9a-f]{36}$/);
  });

  it("is accepted by a real nats-server with the shipped authorization", async () => {
    const nats = await startNatsServer({ authorization: true });
    await nats.stop();
  });
});
