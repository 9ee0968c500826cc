// Jest helpers for the ledger's integration tests: one real nats-server per test file, one ledger
// per test, and the ledger audit after every test.
import { startNatsServer, type NatsServerHandle } from "@agentic/testing";
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
