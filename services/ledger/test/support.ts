// Jest helpers for the ledger's integration tests: one real nats-server per test file, one ledger
// per test, the ledger audit after every test, and the repository's CLIs run as child processes.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { startNatsServer, testIdentities, type NatsServerHandle } from "@agentic/testing";
import { fromServiceError, randomBase62, type RemoteError } from "@agentic/platform";
import { startTestLedger, type StartTestLedgerOptions, type TestLedger } from "./harness";

/** Starts a nats-server (JetStream) before the file's tests and stops it after them. */
export function useNatsServer(): () => NatsServerHandle {
  let nats: NatsServerHandle | undefined;
  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(async () => {
    await nats?.stop();
  });
  return () => nats!;
}

/** Starts a fresh ledger before each test; after it, asserts balance = journal for every wallet, then stops it. */
export function useTestLedger(nats: () => NatsServerHandle, opts: Omit<StartTestLedgerOptions, "natsUrl"> = {}): () => TestLedger {
  let ledger: TestLedger | undefined;
  beforeEach(async () => {
    ledger = await startTestLedger({ natsUrl: nats().url, ...opts });
  });
  afterEach(async () => {
    try {
      await ledger?.assertConsistent();
    } finally {
      await ledger?.stop();
    }
  });
  return () => ledger!;
}

/** A unique id for this run (hold, grant, user ids must not repeat across tests sharing a stream). */
export const uid = (prefix: string) => `${prefix}_${randomBase62(12)}`;

/** The public error of a rejected gRPC call (status, code, hint, details). */
export async function remoteError(call: Promise<unknown>): Promise<RemoteError> {
  try {
    await call;
  } catch (err) {
    return fromServiceError(err);
  }
  throw new Error("expected the call to fail");
}

/** What a CLI run ended with: its exit code (0 on success) and its output. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

const runFile = promisify(execFile);

/**
 * Runs `scripts/<script>` (keys.mjs, ledger.mjs) as a child process against the ledger at `addr`, signed
 * with `adminKey` (the test admin's by default). Never throws: a failing run is its exit code and output.
 */
export async function runScript(
  script: string,
  addr: string,
  args: readonly string[],
  adminKey = testIdentities().privateKeys.admin,
): Promise<CliRun> {
  const env = { ...process.env, LEDGER_ADDR: addr, ADMIN_IDENTITY_KEY: adminKey };
  try {
    const cli = join(__dirname, "../../../scripts", script);
    const { stdout, stderr } = await runFile(process.execPath, [cli, ...args], { env, timeout: 20_000, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as CliRun;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
