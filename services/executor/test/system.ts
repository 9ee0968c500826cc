// The whole execute path for integration tests: a real nats-server, the provider sandbox, the shipped
// catalog, a ledger, a router and the executor, each on loopback; stop() tears them down in reverse.
import { startNatsServer, startTestSystem, type NatsServerHandle } from "@agentic/testing";
import { SANDBOX_NETWORK, startSandbox, type RunningSandbox } from "@agentic/sandbox";
import { startTestCatalog, type TestCatalog } from "@agentic/catalog/testing";
import { startTestLedger, topUpTerms, type TestLedger } from "@agentic/ledger/testing";
import { RANKING_ENV_NAMES } from "@agentic/ranking";
import { startTestRouter, type TestRouter } from "@agentic/router/testing";
import { startTestExecutor, type TestExecutor } from "./harness";

export interface ExecutorSystem {
  nats: NatsServerHandle;
  sandbox: RunningSandbox;
  catalog: TestCatalog;
  ledger: TestLedger;
  router: TestRouter;
  executor: TestExecutor;
  stop(): Promise<void>;
}

export interface ExecutorSystemOptions {
  /** Executor env overrides (see src/config.ts). */
  env?: Record<string, string>;
  /** Router env overrides (see services/router/src/config.ts), e.g. { RECOMMENDATION_TTL_MS: "1000" }. */
  routerEnv?: Record<string, string>;
  /** Ledger hold lifetime in ms. */
  holdTtlMs?: number;
  /** The catalog folder to serve (default: the shipped catalog). */
  catalogDir?: string;
  /** API keys the ledger registers, AGENTIC_API_KEYS syntax (`aak_...:user,...`). */
  apiKeys?: string;
  /** Run NATS with the shipped users and permissions, each service connecting as its own user. */
  natsAuthorization?: boolean;
  /** The ledger takes x402 top-ups to `payTo`, verified and settled by the sandbox's facilitator. */
  topUp?: { payTo: string; facilitatorTimeoutMs?: number };
  /** The ledger's daily allowance per user of uncharged vendor work on our keys (default: production's). */
  unchargedDailyAllowance?: number;
}

export async function startExecutorSystem(opts: ExecutorSystemOptions = {}): Promise<ExecutorSystem> {
  return startTestSystem(async (stack) => {
    const nats = await stack.start(startNatsServer({ authorization: opts.natsAuthorization ?? false }));
    const natsUser = (name: "ledger" | "router" | "executor"): Record<string, string> =>
      nats.users ? { NATS_USER: nats.users[name].user, NATS_PASSWORD: nats.users[name].pass } : {};
    const sandbox = await stack.start(startSandbox({ port: 0 }));
    const catalog = await stack.start(startTestCatalog(opts.catalogDir ? { catalogDir: opts.catalogDir } : {}));
    const ledger = await stack.start(
      startTestLedger({
        natsUrl: nats.url,
        ...(nats.users ? { natsCredentials: nats.users.ledger } : {}),
        ...(opts.holdTtlMs ? { holdTtlMs: opts.holdTtlMs } : {}),
        ...(opts.apiKeys ? { apiKeys: opts.apiKeys } : {}),
        ...(opts.unchargedDailyAllowance !== undefined ? { unchargedDailyAllowance: opts.unchargedDailyAllowance } : {}),
        ...(opts.topUp
          ? {
              topUp: {
                terms: topUpTerms({ network: SANDBOX_NETWORK, payTo: opts.topUp.payTo, maxTimeoutSeconds: 300, maxCredits: 1_000_000 }),
                facilitatorUrl: `${sandbox.url}/facilitator`,
                facilitatorTimeoutMs: opts.topUp.facilitatorTimeoutMs ?? 5_000,
              },
            }
          : {}),
      }),
    );
    const router = await stack.start(
      startTestRouter({
        catalogAddress: catalog.address,
        ledgerAddress: ledger.address,
        natsUrl: nats.url,
        env: { ...natsUser("router"), ...opts.routerEnv },
      }),
    );
    const executor = await stack.start(
      startTestExecutor({
        catalogAddress: catalog.address,
        ledgerAddress: ledger.address,
        natsUrl: nats.url,
        sandboxUrl: sandbox.url,
        // The executor ranks too: it reads the ranking's settings the router is given.
        env: { ...natsUser("executor"), ...rankingEnvOf(opts.routerEnv), ...opts.env },
      }),
    );
    return { nats, sandbox, catalog, ledger, router, executor };
  });
}

/** The ranking's settings among a router's env overrides: the executor ranks with the same ones. */
export function rankingEnvOf(routerEnv: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(routerEnv).filter(([name]) => (RANKING_ENV_NAMES as readonly string[]).includes(name)));
}
