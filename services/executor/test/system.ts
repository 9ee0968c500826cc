// The whole execute path for integration tests: a real nats-server, the provider sandbox, the shipped
// catalog, a ledger, a router and the executor, each on loopback; stop() tears them down in reverse.
import { startNatsServer, type NatsServerHandle } from "@agentic/platform/testing";
import { startSandbox, type RunningSandbox } from "@agentic/sandbox";
import { startTestCatalog, type TestCatalog } from "../../catalog/test/harness";
import { startTestLedger, type TestLedger } from "../../ledger/test/harness";
import { startTestRouter, type TestRouter } from "../../router/test/harness";
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
  /** Ledger hold lifetime in ms. */
  holdTtlMs?: number;
}

export async function startExecutorSystem(opts: ExecutorSystemOptions = {}): Promise<ExecutorSystem> {
  // Stop what did start when a later part fails, so a failed start leaves no process behind.
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
    const catalog = await start(startTestCatalog());
    const ledger = await start(startTestLedger({ natsUrl: nats.url, ...(opts.holdTtlMs ? { holdTtlMs: opts.holdTtlMs } : {}) }));
    const router = await start(startTestRouter({ catalogAddress: catalog.address, ledgerAddress: ledger.address, natsUrl: nats.url }));
    const executor = await start(
      startTestExecutor({
        catalogAddress: catalog.address,
        routerAddress: router.address,
        ledgerAddress: ledger.address,
        natsUrl: nats.url,
        sandboxUrl: sandbox.url,
        ...(opts.env ? { env: opts.env } : {}),
      }),
    );
    return { nats, sandbox, catalog, ledger, router, executor, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** Polls `check` every 20 ms until it holds; rejects after `timeoutMs` naming `what`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
