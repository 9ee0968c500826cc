// Promise-returning client of the router service; every call has a deadline.
import { channelReady, createClient, promisifyUnary, type CallIdentity } from "@agentic/platform";
import { RouterServiceClient } from "@agentic/proto/router/v1";

export type RouterClient = ReturnType<typeof createRouterClient>;

/** Opens one long-lived channel to the router at `address` (host:port); `identity` proves the calling service on every call. */
export function createRouterClient(address: string, deadlineMs = 2_000, identity?: CallIdentity) {
  const client = createClient(RouterServiceClient, address, identity);
  return {
    recommend: promisifyUnary(client, client.recommend, deadlineMs),
    getRecommendation: promisifyUnary(client, client.getRecommendation, deadlineMs),
    getRouteHealth: promisifyUnary(client, client.getRouteHealth, deadlineMs),
    routeTask: promisifyUnary(client, client.routeTask, deadlineMs),
    findCapabilities: promisifyUnary(client, client.findCapabilities, deadlineMs),
    /** Resolves once the channel is connected (rejects after `deadlineMs`). */
    ready: (deadlineMs: number) => channelReady(client, deadlineMs),
    close: () => client.close(),
  };
}
