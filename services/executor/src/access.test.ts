// The access table covers ExecutorService exactly: a new RPC needs its line in src/access.ts.
import { rpcNames, unlistedRpcs } from "@agentic/platform";
import { ExecutorServiceService } from "@agentic/proto/executor/v1";
import { EXECUTOR_ACCESS } from "./access";

it("EXECUTOR_ACCESS lists every RPC of ExecutorService, and no other", () => {
  const missing = unlistedRpcs(ExecutorServiceService, EXECUTOR_ACCESS);
  if (missing.length)
    throw new Error(`add a line for ${missing.join(", ")} to services/executor/src/access.ts saying which services may call it`);
  expect(Object.keys(EXECUTOR_ACCESS).sort()).toEqual(rpcNames(ExecutorServiceService).sort());
});
