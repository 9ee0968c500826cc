import { createHealthChecker, loadConfig } from "@agentic/platform";
import { testIdentities, waitFor } from "@agentic/testing";
import type { CatalogSource } from "@agentic/clients";
import { fakeOutcomeFeed, recordingLogger } from "@agentic/ranking/testing";
import { startRouterApp } from "./app";
import { configSchema } from "./config";

describe("router app", () => {
  it("goes NOT_SERVING when the outcome feed dies", async () => {
    const feed = fakeOutcomeFeed();
    const unreachable = () => Promise.reject(new Error("no catalog in this test"));
    const catalog: CatalogSource = {
      getCatalogVersion: unreachable,
      listDomains: unreachable,
      listCapabilityEntries: unreachable,
      getCapability: unreachable,
      listCapabilityRoutes: unreachable,
      getContract: unreachable,
    };
    const app = await startRouterApp({
      config: loadConfig(configSchema, {
        NATS_URL: "nats://unused:4222",
        CATALOG_REFRESH_MS: "60000",
        SERVICE_IDENTITY_KEY: testIdentities().privateKeys.router,
        TRUSTED_SERVICE_KEYS: testIdentities().trustedKeys,
      }),
      catalog,
      ledger: { getWallet: unreachable },
      nc: feed.nc,
      logger: recordingLogger(),
      bindAddress: "127.0.0.1:0",
      grpcStopGraceMs: 100,
    });
    const health = createHealthChecker(`127.0.0.1:${app.port}`);
    try {
      expect(await health.check(2_000)).toBe(true);
      feed.fail(new Error("consumer gone"));
      await waitFor(async () => !(await health.check(2_000)), { timeoutMs: 5_000, what: "the router to go NOT_SERVING" });
    } finally {
      health.close();
      await app.stop();
    }
  });
});
