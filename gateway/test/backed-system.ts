// Starts the real backends behind the gateway: nats-server, ledger, catalog, router, gateway.
import { startNatsServer, type NatsServerHandle } from "@agentic/platform/testing";
import { startTestCatalog, type TestCatalog } from "../../services/catalog/test/harness";
import { startTestLedger } from "../../services/ledger/test/harness";
import { startTestRouter, type TestRouter } from "../../services/router/test/harness";
import { startTestGateway, type TestGateway, type TestGatewayOptions } from "./harness";

export const TEST_KEY = "aak_TestKeyForGatewayTests000000000000000001";
export const TEST_USER = "user-gateway-test";

export interface BackedSystem {
  gw: TestGateway;
  ledger: Awaited<ReturnType<typeof startTestLedger>>;
  catalog: TestCatalog;
  router: TestRouter;
  nats: NatsServerHandle;
  /** Fetch with the test key (or `key`) as bearer. */
  authed(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  stop(): Promise<void>;
}

export async function startBackedSystem(opts: Partial<TestGatewayOptions> = {}): Promise<BackedSystem> {
  const nats = await startNatsServer();
  const ledger = await startTestLedger({ natsUrl: nats.url, apiKeys: `${TEST_KEY}:${TEST_USER}` });
  const catalog = await startTestCatalog();
  const router = await startTestRouter({ catalogAddress: catalog.address, ledgerAddress: ledger.address, natsUrl: nats.url });
  const gw = await startTestGateway({ catalogAddress: catalog.address, ledgerAddress: ledger.address, routerAddress: router.address, ...opts });
  return {
    gw,
    ledger,
    catalog,
    router,
    nats,
    authed(path, init = {}) {
      const { key = TEST_KEY, ...rest } = init;
      return fetch(gw.baseUrl + path, { ...rest, headers: { authorization: `Bearer ${key}`, ...(rest.headers ?? {}) } });
    },
    async stop() {
      await gw.stop();
      await router.stop();
      await catalog.stop();
      await ledger.stop();
      await nats.stop();
    },
  };
}
