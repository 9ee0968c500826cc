// Promise-returning client of the router service; every call has a deadline.
import { createClient, promisifyUnary } from "@agentic/platform";
import { RouterServiceClient } from "@agentic/proto/router/v1";

export type RouterClient = ReturnType<typeof createRouterClient>;

/** Opens one long-lived channel to the router at `address` (host:port). */
export function createRouterClient(address: string, deadlineMs = 2_000) {
  const client = createClient(RouterServiceClient, address);
  return {
    recommend: promisifyUnary(client, client.recommend, deadlineMs),
    close: () => client.close(),
  };
}
