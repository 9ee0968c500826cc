// The access table covers RouterService exactly: a new RPC needs its line in src/access.ts.
import { rpcNames, unlistedRpcs } from "@agentic/platform";
import { RouterServiceService } from "@agentic/proto/router/v1";
import { ROUTER_ACCESS } from "./access";

it("ROUTER_ACCESS lists every RPC of RouterService, and no other", () => {
  const missing = unlistedRpcs(RouterServiceService, ROUTER_ACCESS);
  if (missing.length)
    throw new Error(`add a line for ${missing.join(", ")} to services/router/src/access.ts saying which services may call it`);
  expect(Object.keys(ROUTER_ACCESS).sort()).toEqual(rpcNames(RouterServiceService).sort());
});
