// A bearer that is not shaped like an API key (aak_ + 32..128 base62) is refused by the gateway
// itself: 401 INVALID_API_KEY, and the ledger never sees an AuthenticateApiKey call for it (its own
// RPC metric, in this process, does not move). A well-formed unknown key does reach the ledger.
import { rpcServerDuration } from "@agentic/platform";
import { startNatsServer, startTestSystem } from "@agentic/testing";
import { startTestCatalog } from "@agentic/catalog/testing";
import { startTestLedger } from "@agentic/ledger/testing";
import { startTestGateway } from "./harness";

/** AuthenticateApiKey calls the ledger has answered so far. */
async function ledgerAuthCalls(): Promise<number> {
  const { values } = await rpcServerDuration.get();
  return values
    .filter((v) => v.metricName === "rpc_server_duration_seconds_count" && v.labels.rpc_method === "AuthenticateApiKey")
    .reduce((sum, v) => sum + v.value, 0);
}

let sys: Awaited<ReturnType<typeof start>>;
const start = () =>
  startTestSystem(async (stack) => {
    const nats = await stack.start(startNatsServer());
    const catalog = await stack.start(startTestCatalog());
    const ledger = await stack.start(startTestLedger({ natsUrl: nats.url }));
    const gw = await stack.start(startTestGateway({ catalogAddress: catalog.address, ledgerAddress: ledger.address }));
    return { gw };
  });
beforeAll(async () => {
  sys = await start();
});
afterAll(() => sys?.stop());

const wallet = (token: string) => fetch(`${sys.gw.baseUrl}/wallet`, { headers: { authorization: `Bearer ${token}` } });

it.each([
  ["not a key at all", "not-a-key"],
  ["too short", "aak_abc123"],
  ["too long", `aak_${"a".repeat(129)}`],
  ["another prefix", `sk_${"a".repeat(40)}`],
  ["a character outside base62", `aak_${"a".repeat(31)}-`],
])("%s → 401 INVALID_API_KEY without a ledger lookup", async (_, token) => {
  const before = await ledgerAuthCalls();
  const res = await wallet(token);
  expect(res.status).toBe(401);
  expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
  expect(await res.json()).toMatchObject({
    success: false,
    code: "INVALID_API_KEY",
    error: "the API key is malformed",
    hint: expect.stringContaining("aak_"),
  });
  expect(await ledgerAuthCalls()).toBe(before);
});

it("a well-formed unknown key is looked up in the ledger (the metric does count lookups)", async () => {
  const before = await ledgerAuthCalls();
  const res = await wallet(`aak_${"U".repeat(40)}`);
  expect(res.status).toBe(401);
  expect(await res.json()).toMatchObject({ code: "INVALID_API_KEY", error: "the API key is invalid or revoked" });
  expect(await ledgerAuthCalls()).toBe(before + 1);
});
