// Execute spends a user's credits, Quote reserves them: only the gateway's proven identity may call them (src/access.ts).
// Another service, a caller without a token, or one signing with an untrusted key is refused before
// anything is held or any vendor is called; the router likewise answers only the gateway.
import { status } from "@grpc/grpc-js";
import { createExecutorClient, createRouterClient } from "@agentic/clients";
import { fromServiceError, generateIdentityKeys, serviceIdentity, type CallIdentity } from "@agentic/platform";
import { testIdentities } from "@agentic/testing";
import { startExecutorSystem, type ExecutorSystem } from "../system";

const USER = "only-gateway-user";
let sys: ExecutorSystem;
beforeAll(async () => {
  sys = await startExecutorSystem();
  await sys.ledger.client.grantCredits({ grantId: "grant-only-gateway", userId: USER, amountCredits: 100, reason: "test" });
});
afterAll(() => sys?.stop());

const refusal = (call: Promise<unknown>) => call.then(() => undefined, fromServiceError);
const execute = (identity?: CallIdentity) => {
  const client = createExecutorClient(sys.executor.address, 10_000, identity);
  const input = { to: "ada@example.com", subject: "s", text: "t", provider: "resend" };
  return client.execute({ userId: USER, domainKey: "email", capabilityId: "send", input }).finally(() => client.close());
};

it("refuses Execute from any caller but the gateway; nothing is held or sent", async () => {
  for (const name of ["router", "ledger", "executor", "admin"] as const) {
    expect(await refusal(execute(testIdentities().identity(name)))).toMatchObject({
      grpcCode: status.PERMISSION_DENIED,
      code: "SERVICE_NOT_ALLOWED",
    });
  }
  expect(await refusal(execute())).toMatchObject({ grpcCode: status.UNAUTHENTICATED, code: "SERVICE_IDENTITY_REQUIRED" });
  expect(await refusal(execute(serviceIdentity("gateway", generateIdentityKeys().privateKey)))).toMatchObject({
    grpcCode: status.UNAUTHENTICATED,
  });
  expect(sys.sandbox.control.calls("resend")).toHaveLength(0);
  expect((await sys.ledger.client.getWallet({ userId: USER })).wallet).toMatchObject({ balanceCredits: 100, heldCredits: 0 });
  // The gateway's identity is served.
  await expect(execute(testIdentities().identity("gateway"))).resolves.toMatchObject({ creditsCharged: expect.any(Number) });
});

it("refuses Quote from any caller but the gateway; nothing is reserved", async () => {
  const quote = (name: "router" | "ledger" | "gateway") => {
    const client = createExecutorClient(sys.executor.address, 10_000, testIdentities().identity(name));
    const input = { to: "ada@example.com", subject: "s", text: "t", provider: "resend" };
    return client.quote({ userId: USER, domainKey: "email", capabilityId: "send", input }).finally(() => client.close());
  };
  const before = (await sys.ledger.client.getWallet({ userId: USER })).wallet?.balanceCredits ?? 0;
  for (const name of ["router", "ledger"] as const)
    expect(await refusal(quote(name))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: "SERVICE_NOT_ALLOWED" });
  expect((await sys.ledger.client.getWallet({ userId: USER })).wallet?.balanceCredits).toBe(before);
  await expect(quote("gateway")).resolves.toMatchObject({ routeKey: "email.send.resend", priceCredits: 10 });
});

it("the router answers Recommend to the gateway only (the executor ranks in process)", async () => {
  const recommend = (name: "gateway" | "executor" | "ledger") => {
    const client = createRouterClient(sys.router.address, 5_000, testIdentities().identity(name));
    return client
      .recommend({ userId: USER, domainKey: "email", capabilityId: "send", optimizationPreferences: [] })
      .finally(() => client.close());
  };
  await expect(recommend("gateway")).resolves.toBeDefined();
  for (const name of ["executor", "ledger"] as const)
    expect(await refusal(recommend(name))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: "SERVICE_NOT_ALLOWED" });
});
