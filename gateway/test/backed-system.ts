// The gateway on top of the executor's test system (nats-server, provider sandbox, catalog, ledger,
// router, executor). A part that fails to start stops the ones already running.
import { startTestSystem } from "@agentic/testing";
import { startExecutorSystem, type ExecutorSystem } from "@agentic/executor/testing";
import { startTestGateway, type TestGateway, type TestGatewayOptions } from "./harness";

export const TEST_KEY = "aak_TestKeyForGatewayTests000000000000000001";
export const TEST_USER = "user-gateway-test";

export interface BackedSystem extends ExecutorSystem {
  gw: TestGateway;
  /** Fetch with the test key (or `key`) as bearer. */
  authed(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  stop(): Promise<void>;
}

export interface BackedSystemOptions extends Partial<TestGatewayOptions> {
  /** More API keys, AGENTIC_API_KEYS syntax (`aak_...:user,...`), beside TEST_KEY for TEST_USER. */
  apiKeys?: string;
  /** The ledger's daily allowance per user of uncharged vendor work on our keys (default: production's). */
  unchargedDailyAllowance?: number;
  /** Executor env overrides (see services/executor/src/config.ts), e.g. { PROVIDER_TIMEOUT_MS: "500" }. */
  executorEnv?: Record<string, string>;
  /** Router env overrides (see services/router/src/config.ts), e.g. { RECOMMENDATION_TTL_MS: "1000" }. */
  routerEnv?: Record<string, string>;
  /** The catalog folder to serve (default: the shipped catalog), e.g. a temp copy an operator edited. */
  catalogDir?: string;
  /** The ledger takes x402 top-ups to `payTo` through the sandbox's facilitator. */
  topUp?: { payTo: string; facilitatorTimeoutMs?: number };
}

export async function startBackedSystem(opts: BackedSystemOptions = {}): Promise<BackedSystem> {
  const { apiKeys, executorEnv, routerEnv, topUp, catalogDir, unchargedDailyAllowance, ...gatewayOpts } = opts;
  return startTestSystem(async (stack) => {
    const backends = await stack.start(
      startExecutorSystem({
        apiKeys: [`${TEST_KEY}:${TEST_USER}`, ...(apiKeys ? [apiKeys] : [])].join(","),
        ...(executorEnv ? { env: executorEnv } : {}),
        ...(routerEnv ? { routerEnv } : {}),
        ...(topUp ? { topUp } : {}),
        ...(catalogDir ? { catalogDir } : {}),
        ...(unchargedDailyAllowance !== undefined ? { unchargedDailyAllowance } : {}),
      }),
    );
    const { catalog, ledger, router, executor } = backends;
    const gw = await stack.start(
      startTestGateway({
        catalogAddress: catalog.address,
        ledgerAddress: ledger.address,
        routerAddress: router.address,
        executorAddress: executor.address,
        ...gatewayOpts,
      }),
    );
    return {
      ...backends,
      gw,
      authed(path: string, init: RequestInit & { key?: string } = {}) {
        const { key = TEST_KEY, ...rest } = init;
        return fetch(gw.baseUrl + path, { ...rest, headers: { authorization: `Bearer ${key}`, ...(rest.headers ?? {}) } });
      },
    };
  });
}
