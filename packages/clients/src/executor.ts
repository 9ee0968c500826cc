// Promise-returning client of the executor service; every call has a deadline, long enough by
// default for a paid provider call with fallbacks (the executor bounds its own work by it).
import { channelReady, createClient, promisifyUnary, type CallIdentity } from "@agentic/platform";
import { ExecutorServiceClient } from "@agentic/proto/executor/v1";

export type ExecutorClient = ReturnType<typeof createExecutorClient>;

/** Opens one long-lived channel to the executor at `address` (host:port); `identity` proves the calling service on every call. */
export function createExecutorClient(address: string, deadlineMs = 60_000, identity?: CallIdentity) {
  const client = createClient(ExecutorServiceClient, address, identity);
  return {
    execute: promisifyUnary(client, client.execute, deadlineMs),
    quote: promisifyUnary(client, client.quote, deadlineMs),
    /** Resolves once the channel is connected (rejects after `deadlineMs`). */
    ready: (deadlineMs: number) => channelReady(client, deadlineMs),
    close: () => client.close(),
  };
}
