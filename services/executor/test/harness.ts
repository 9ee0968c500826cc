// startTestExecutor(): a real executor for tests — the production wiring (src/app.ts: catalog cache,
// rails with a fresh service wallet, provider adapters pointed at the sandbox, settlement and outcome
// publishers, gRPC + health) on 127.0.0.1:<random port>. Used by the executor's own integration tests
// and by the gateway's backed system:
//
//   const nats = await startNatsServer();
//   const sandbox = await startSandbox({ port: 0 });
//   const catalog = await startTestCatalog();
//   const ledger = await startTestLedger({ natsUrl: nats.url, grants: { "user-1": 100 } });
//   const executor = await startTestExecutor({ catalogAddress: catalog.address, ledgerAddress: ledger.address,
//     natsUrl: nats.url, sandboxUrl: sandbox.url });
//   const res = await executor.client.execute({ userId: "user-1", domainKey: "email", capabilityId: "send",
//     input: { to: "ada@example.com", subject: "Hi", text: "Hello", provider: "resend" } });
//   await executor.stop();
import { createCatalogClient, createExecutorClient, createLedgerClient, type ExecutorClient } from "@agentic/clients";
import { connectBus, createLogger, loadConfig, natsCredentialsOf, serviceIdentity } from "@agentic/platform";
import { testIdentities, waitFor, whenConnected } from "@agentic/testing";
import { sandboxExecutorEnv } from "@agentic/sandbox";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { startExecutorApp, type ExecutorApp } from "../src/app";
import { configSchema } from "../src/config";
import { ADAPTER_FACTORIES } from "../src/providers";

export interface StartTestExecutorOptions {
  catalogAddress: string;
  ledgerAddress: string;
  /** A nats-server with JetStream; the executor creates the EXECUTIONS stream if missing. */
  natsUrl: string;
  /** Base URL of a running provider sandbox (startSandbox().url); every adapter is pointed at it. */
  sandboxUrl: string;
  /** Executor env overrides, e.g. { PROVIDER_TIMEOUT_MS: "500" } (see src/config.ts); the ranking's settings go to the router too. */
  env?: Record<string, string>;
  /** pino level (default EXECUTOR_TEST_LOG_LEVEL, else "silent"). */
  logLevel?: string;
}

export interface TestExecutor {
  /** "127.0.0.1:<port>": what EXECUTOR_ADDR should be for the code under test. */
  address: string;
  /** ExecutorService as promises; 30 s deadline by default. */
  client: Pick<ExecutorClient, "execute">;
  /** Address of the service wallet that pays x402 and MPP sellers (its sandbox balance falls by what it pays). */
  walletAddress: string;
  app: ExecutorApp;
  /** Resolves once the executor's ranking has applied at least `count` outcomes in total (as the router's waitForOutcomes). */
  waitForOutcomes(count: number, timeoutMs?: number): Promise<void>;
  /** Stops the executor (health off, in-flight executions finish), closes clients and NATS. Idempotent. */
  stop(): Promise<void>;
}

export async function startTestExecutor(opts: StartTestExecutorOptions): Promise<TestExecutor> {
  // Base URLs of every provider on every network, the sandbox's API keys, a fresh service wallet.
  const sandboxEnv = sandboxExecutorEnv(opts.sandboxUrl, Object.keys(ADAPTER_FACTORIES));
  const config = loadConfig(configSchema, {
    NATS_URL: opts.natsUrl,
    CATALOG_ADDR: opts.catalogAddress,
    LEDGER_ADDR: opts.ledgerAddress,
    // The executor's identity of testIdentities(), which the ledger harness trusts.
    SERVICE_IDENTITY_KEY: testIdentities().privateKeys.executor,
    TRUSTED_SERVICE_KEYS: testIdentities().trustedKeys,
    ...sandboxEnv,
    ...opts.env,
  });
  const logger = createLogger("executor", opts.logLevel ?? process.env.EXECUTOR_TEST_LOG_LEVEL ?? "silent");
  const identity = serviceIdentity("executor", config.SERVICE_IDENTITY_KEY);
  const catalog = createCatalogClient(config.CATALOG_ADDR, config.DEPENDENCY_DEADLINE_MS, identity);
  const ledger = createLedgerClient(config.LEDGER_ADDR, config.DEPENDENCY_DEADLINE_MS, identity);
  const nc = await connectBus(opts.natsUrl, "executor-test", natsCredentialsOf(config));
  const closeClients = () => {
    catalog.close();
    ledger.close();
  };
  let app: ExecutorApp;
  try {
    app = await startExecutorApp({ config, catalog, ledger, nc, logger, bindAddress: "127.0.0.1:0", grpcStopGraceMs: 5_000 });
  } catch (err) {
    closeClients();
    await nc.close();
    throw err;
  }

  const address = `127.0.0.1:${app.port}`;
  const client = createExecutorClient(address, 30_000, testIdentities().identity("gateway"));
  let stopped: Promise<void> | undefined;
  return whenConnected(client, {
    address,
    client,
    walletAddress: privateKeyToAccount(config.X402_WALLET_PRIVATE_KEY as Hex).address,
    app,
    waitForOutcomes: (count, timeoutMs = 5_000) =>
      waitFor(() => app.rankingOutcomes.applied >= count, { timeoutMs, what: `${count} outcomes applied by the executor's ranking` }),
    stop() {
      stopped ??= (async () => {
        client.close();
        await app.stop();
        closeClients();
        await nc.drain();
      })();
      return stopped;
    },
  });
}
