// The access table covers LedgerService exactly: a new RPC without a line in src/access.ts fails
// here (and is refused to every caller at run time) until its author says who may call it.
import { rpcNames, unlistedRpcs } from "@agentic/platform";
import { LedgerServiceService } from "@agentic/proto/ledger/v1";
import { LEDGER_ACCESS } from "./access";

describe("LEDGER_ACCESS", () => {
  it("lists every RPC of LedgerService", () => {
    const missing = unlistedRpcs(LedgerServiceService, LEDGER_ACCESS);
    if (missing.length)
      throw new Error(`add a line for ${missing.join(", ")} to services/ledger/src/access.ts saying which services may call it`);
  });

  it("lists no RPC that LedgerService does not have", () => {
    const rpcs = new Set(rpcNames(LedgerServiceService));
    expect(Object.keys(LEDGER_ACCESS).filter((name) => !rpcs.has(name))).toEqual([]);
  });

  it("lets only admin mint credits and manage keys outside development", () => {
    for (const rpc of ["GrantCredits", "RecordCreditMovement", "CreateApiKey", "ListApiKeys", "RevokeApiKey", "SetApiKeyLimits"]) {
      expect(LEDGER_ACCESS[rpc]!.filter((entry) => typeof entry === "string")).toEqual(["admin"]);
    }
  });
});
