// Development routes (POST /dev/init, GET /wallet?userId=) exist only when APP_ENV says development
// or test explicitly. A gateway whose APP_ENV is unset, or production, has neither: /dev/init is a
// 404 and ?userId= is ignored (the caller's own wallet is answered).
import { startNatsServer, startTestSystem } from "@agentic/testing";
import { startTestCatalog } from "@agentic/catalog/testing";
import { startTestLedger } from "@agentic/ledger/testing";
import { startTestGateway, type TestGatewayOptions } from "./harness";

const KEY = `aak_${"D".repeat(40)}`;
let sys: Awaited<ReturnType<typeof start>>;
const start = () =>
  startTestSystem(async (stack) => {
    const nats = await stack.start(startNatsServer());
    const catalog = await stack.start(startTestCatalog());
    const ledger = await stack.start(startTestLedger({ natsUrl: nats.url, apiKeys: `${KEY}:caller`, grants: { caller: 5, other: 700 } }));
    const gateway = (appEnv: TestGatewayOptions["appEnv"]) =>
      stack.start(startTestGateway({ catalogAddress: catalog.address, ledgerAddress: ledger.address, appEnv, metricsPort: 0 }));
    return { unset: await gateway(null), production: await gateway("production"), development: await gateway("development") };
  });
beforeAll(async () => {
  sys = await start();
});
afterAll(() => sys?.stop());

const devInit = (baseUrl: string) =>
  fetch(`${baseUrl}/dev/init`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
const walletOf = async (baseUrl: string, userId: string) =>
  (await (await fetch(`${baseUrl}/wallet?userId=${userId}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as {
    userId: string;
    balanceCredits: number;
  };

it.each(["unset", "production"] as const)("APP_ENV %s: no /dev/init, and ?userId= is ignored", async (env) => {
  expect((await devInit(sys[env].baseUrl)).status).toBe(404);
  expect(await walletOf(sys[env].baseUrl, "other")).toMatchObject({ userId: "caller", balanceCredits: 5 });
});

it("APP_ENV development: /dev/init grants, and ?userId= reads another wallet", async () => {
  expect((await devInit(sys.development.baseUrl)).status).toBe(200);
  expect(await walletOf(sys.development.baseUrl, "other")).toMatchObject({ userId: "other", balanceCredits: 700 });
});
