// Starts the real backends behind the gateway: nats-server, the provider sandbox, ledger, catalog,
// router, executor, gateway. A part that fails to start stops the ones already running.
import { startNatsServer, type NatsServerHandle } from "@agentic/platform/testing";
import { startSandbox, type RunningSandbox } from "@agentic/sandbox";
import { startTestCatalog, type TestCatalog } from "../../services/catalog/test/harness";
import { startTestExecutor, type TestExecutor } from "../../services/executor/test/harness";
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
  executor: TestExecutor;
  sandbox: RunningSandbox;
  nats: NatsServerHandle;
  /** Fetch with the test key (or `key`) as bearer. */
  authed(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  stop(): Promise<void>;
}

export interface BackedSystemOptions extends Partial<TestGatewayOptions> {
  /** More API keys, AGENTIC_API_KEYS syntax (`aak_...:user,...`), beside TEST_KEY for TEST_USER. */
  apiKeys?: string;
  /** Executor env overrides (see services/executor/src/config.ts), e.g. { PROVIDER_TIMEOUT_MS: "500" }. */
  executorEnv?: Record<string, string>;
}

export async function startBackedSystem(opts: BackedSystemOptions = {}): Promise<BackedSystem> {
  const { apiKeys, executorEnv, ...gatewayOpts } = opts;
  const started: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of started.reverse()) await stop();
  };
  const start = async <T extends { stop(): Promise<void> }>(part: Promise<T>): Promise<T> => {
    const value = await part;
    started.push(() => value.stop());
    return value;
  };
  try {
    const nats = await start(startNatsServer());
    const sandbox = await start(startSandbox({ port: 0 }));
    const ledger = await start(startTestLedger({ natsUrl: nats.url, apiKeys: [`${TEST_KEY}:${TEST_USER}`, ...(apiKeys ? [apiKeys] : [])].join(",") }));
    const catalog = await start(startTestCatalog());
    const router = await start(startTestRouter({ catalogAddress: catalog.address, ledgerAddress: ledger.address, natsUrl: nats.url }));
    const executor = await start(
      startTestExecutor({
        catalogAddress: catalog.address,
        routerAddress: router.address,
        ledgerAddress: ledger.address,
        natsUrl: nats.url,
        sandboxUrl: sandbox.url,
        ...(executorEnv ? { env: executorEnv } : {}),
      }),
    );
    const gw = await start(
      startTestGateway({ catalogAddress: catalog.address, ledgerAddress: ledger.address, routerAddress: router.address, executorAddress: executor.address, ...gatewayOpts }),
    );
    return {
      gw,
      ledger,
      catalog,
      router,
      executor,
      sandbox,
      nats,
      authed(path, init = {}) {
        const { key = TEST_KEY, ...rest } = init;
        return fetch(gw.baseUrl + path, { ...rest, headers: { authorization: `Bearer ${key}`, ...(rest.headers ?? {}) } });
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
