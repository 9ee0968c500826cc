// A service reports SERVING only once its dependencies answer: whenDependenciesAnswer waits for a
// real gRPC health service to turn SERVING, and gives up (naming what is missing) after its
// longest wait, so a dependency down at start never keeps a service from starting.
import { createLogger } from "../logger";
import { createGrpcServer, bindServer, stopServer } from "./server";
import { createHealth, servingAt, whenDependenciesAnswer } from "./health";

const logger = createLogger("health-test", "silent");

describe("whenDependenciesAnswer", () => {
  it("resolves once the dependency's health turns SERVING, with nothing missing", async () => {
    const server = createGrpcServer();
    const health = createHealth(["agentic.test.v1.Dependency"]);
    health.addToServer(server);
    const port = await bindServer(server, "127.0.0.1:0");
    try {
      const dependency = servingAt(`127.0.0.1:${port}`);
      expect(await dependency()).toBe(false);
      let settled = false;
      const waiting = whenDependenciesAnswer({ dependency }, { logger, intervalMs: 20 }).finally(() => (settled = true));
      // Still NOT_SERVING: the wait goes on.
      expect(await dependency()).toBe(false);
      expect(settled).toBe(false);
      health.setServing(true);
      expect(await waiting).toEqual([]);
    } finally {
      await stopServer(server, 1_000);
    }
  });

  it("after its longest wait, resolves with the dependencies that never answered", async () => {
    const nowhere = servingAt("127.0.0.1:1");
    const always = async () => true;
    expect(await whenDependenciesAnswer({ nowhere, always }, { logger, maxWaitMs: 300, intervalMs: 50 })).toEqual(["nowhere"]);
  });

  it("ends early when the service starts stopping", async () => {
    const stopping = new AbortController();
    const waiting = whenDependenciesAnswer({ never: async () => false }, { logger, intervalMs: 20, signal: stopping.signal });
    stopping.abort();
    expect(await waiting).toEqual(["never"]);
  });
});
