import { connect } from "nats";
import { NATS_AUTH_CONFIG, natsPassword, startNatsServer } from "./nats-server";
import { EXECUTIONS_STREAM, NATS_MAX_PAYLOAD_BYTES, ensureExecutionsStream, serverMaxPayload } from "@agentic/platform";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

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

describe("max_payload", () => {
  it("is NATS_MAX_PAYLOAD_BYTES on every server it starts, with or without the shipped authorization", async () => {
    for (const authorization of [false, true]) {
      const nats = await startNatsServer({ authorization });
      try {
        const creds = nats.users?.executor;
        const nc = await connect({ servers: nats.url, ...(creds ? { user: creds.user, pass: creds.pass } : {}) });
        expect(serverMaxPayload(nc)).toBe(NATS_MAX_PAYLOAD_BYTES);
        await nc.close();
      } finally {
        await nats.stop();
      }
    }
  });

  it("is the one Kubernetes' nats.conf sets, single node and cluster (8MB = 8 MiB in NATS's units)", () => {
    const components = dirname(dirname(NATS_AUTH_CONFIG));
    for (const component of ["nats", "nats-cluster"]) {
      expect(readFileSync(join(components, component, "nats.conf"), "utf8")).toMatch(/^max_payload: 8MB$/m);
    }
    expect(8 * 1024 * 1024).toBe(NATS_MAX_PAYLOAD_BYTES);
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
