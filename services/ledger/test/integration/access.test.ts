// Service identity at the ledger, over real gRPC: who may call what is src/access.ts, proven by
// each caller's signed token. A router or gateway cannot mint credits or issue keys; a call without
// a token, or with a token of a key the ledger does not trust, is refused; health stays open.
import { status } from "@grpc/grpc-js";
import { createLedgerClient, type LedgerClient } from "@agentic/clients";
import { createHealthChecker, generateIdentityKeys, serviceIdentity, type CallIdentity, type ServiceName } from "@agentic/platform";
import { testIdentities } from "@agentic/testing";
import { startTestLedger, type TestLedger } from "../harness";
import { remoteError, uid, useNatsServer } from "../support";

const nats = useNatsServer();

describe.each([
  { env: "production", development: false },
  { env: "development", development: true },
])("a ledger in $env", ({ development }) => {
  let ledger: TestLedger;
  const clients: LedgerClient[] = [];
  const as = (identity?: CallIdentity) => {
    const client = createLedgerClient(ledger.address, 5_000, identity);
    clients.push(client);
    return client;
  };
  const service = (name: ServiceName) => as(testIdentities().identity(name));
  beforeAll(async () => {
    ledger = await startTestLedger({ natsUrl: nats().url, development });
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await ledger.stop();
  });

  const grant = (client: LedgerClient, userId: string) =>
    client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 1_000_000, reason: "forged" });

  it.each(["router", "executor", "catalog", "ledger"] as const)(
    "refuses GrantCredits from the %s, and the wallet stays empty",
    async (name) => {
      const userId = uid("user");
      expect(await remoteError(grant(service(name), userId))).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
        code: "SERVICE_NOT_ALLOWED",
      });
      expect((await service("router").getWallet({ userId })).wallet?.balanceCredits ?? 0).toBe(0);
    },
  );

  it(development ? "lets the gateway grant credits (POST /dev/init)" : "refuses GrantCredits from the gateway", async () => {
    const userId = uid("user");
    const call = grant(service("gateway"), userId);
    if (development) await expect(call).resolves.toMatchObject({ creditedCredits: 1_000_000 });
    else expect(await remoteError(call)).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: "SERVICE_NOT_ALLOWED" });
  });

  it("lets admin grant credits and manage keys, and nobody else manage keys", async () => {
    const userId = uid("user");
    await expect(grant(service("admin"), userId)).resolves.toMatchObject({ creditedCredits: 1_000_000 });
    const created = await service("admin").createApiKey({ userId, name: "" });
    for (const name of ["gateway", "router", "executor"] as const) {
      expect(await remoteError(service(name).createApiKey({ userId, name: "" }))).toMatchObject({ grpcCode: status.PERMISSION_DENIED });
      expect(await remoteError(service(name).revokeApiKey({ keyId: created.key!.keyId }))).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
      });
      expect(await remoteError(service(name).listApiKeys({ userId }))).toMatchObject({ grpcCode: status.PERMISSION_DENIED });
      expect(await remoteError(service(name).setApiKeyLimits({ keyId: created.key!.keyId, limits: { maxInFlight: 1000 } }))).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
      });
    }
    await expect(service("gateway").authenticateApiKey({ apiKey: created.apiKey })).resolves.toMatchObject({ userId });
  });

  it("lets only the executor hold credits", async () => {
    const userId = uid("user");
    const hold = (client: LedgerClient) => client.holdCredits({ holdId: uid("att"), userId, amountCredits: 1, ttlMs: 0, routeKey: "" });
    expect(await remoteError(hold(service("gateway")))).toMatchObject({ grpcCode: status.PERMISSION_DENIED });
    expect(await remoteError(hold(service("router")))).toMatchObject({ grpcCode: status.PERMISSION_DENIED });
    // The executor gets through the identity check: the refusal is the ledger's own (no credits).
    expect(await remoteError(hold(service("executor")))).toMatchObject({ code: "CREDITS_REQUIRED" });
  });

  it("refuses a call without a token, or signed with a key it does not trust, as UNAUTHENTICATED", async () => {
    expect(await remoteError(as().getWallet({ userId: "u" }))).toMatchObject({
      grpcCode: status.UNAUTHENTICATED,
      code: "SERVICE_IDENTITY_REQUIRED",
    });
    // A compromised pod that makes its own key and claims to be admin.
    const impostor = serviceIdentity("admin", generateIdentityKeys().privateKey);
    expect(await remoteError(grant(as(impostor), uid("user")))).toMatchObject({
      grpcCode: status.UNAUTHENTICATED,
      code: "SERVICE_IDENTITY_INVALID",
    });
  });

  it("answers health checks without a token", async () => {
    const checker = createHealthChecker(ledger.address);
    try {
      await expect(checker.check(2_000)).resolves.toBe(true);
    } finally {
      checker.close();
    }
  });
});
