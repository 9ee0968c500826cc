// Sending from an owned inbox on the shipped catalog, where the AgentMail send route is byo on an owned
// resource (the inbox, bought through us, on our AgentMail account): the inbox a user bought is recorded
// as theirs with the capture, so they can send from it at once, unpinned, and it is sent from that inbox
// and no other sender; another user naming it gets RESOURCE_NOT_FOUND and the vendor sees no call.
import { fromServiceError } from "@agentic/platform";
import type { ExecuteRequest } from "@agentic/proto/executor/v1";
import { startExecutorSystem, type ExecutorSystem } from "../system";

describe("sending from an owned inbox", () => {
  let sys: ExecutorSystem;
  const send = (userId: string, extra: Record<string, unknown>): ExecuteRequest => ({
    userId,
    domainKey: "email",
    capabilityId: "send",
    input: { to: "ada@example.com", subject: "Hi", text: "Hello", ...extra },
  });
  const grant = (userId: string, credits: number) =>
    sys.ledger.client.grantCredits({ grantId: `grant-${userId}`, userId, amountCredits: credits, reason: "test" });

  beforeAll(async () => {
    sys = await startExecutorSystem();
  });
  afterAll(() => sys?.stop());
  afterEach(() => sys.ledger.assertConsistent());

  it("sends from the inbox its owner just bought, unpinned, and from no other sender; another user gets 404 and no call is made", async () => {
    await grant("owner", 3_000);
    await grant("other", 3_000);
    const bought = await sys.executor.client.execute({
      userId: "owner",
      domainKey: "email",
      capabilityId: "inbox-buy",
      input: { username: "owner-inbox" },
    });
    const inboxId = bought.data!.inboxId as string;
    expect(inboxId).toBe("owner-inbox@agentmail.to");
    sys.sandbox.control.clearCalls();

    // Right after the purchase answered, without a pin: the ledger already knows the inbox is the owner's.
    const sent = await sys.executor.client.execute(send("owner", { inboxId }));
    expect(sent).toMatchObject({ success: true, status: "sent", routeKey: "email.send.agentmail.mpp" });
    expect(sys.sandbox.control.calls("agentmail").map((c) => [c.method, c.path, c.status])).toEqual([
      ["POST", "/v0/inboxes/owner-inbox%40agentmail.to/messages/send", 402],
      ["POST", "/v0/inboxes/owner-inbox%40agentmail.to/messages/send", 200],
    ]);
    for (const other of ["resend", "sendgrid", "postmark"]) expect(sys.sandbox.control.calls(other)).toEqual([]);

    sys.sandbox.control.clearCalls();
    const refused = await sys.executor.client.execute(send("other", { inboxId })).catch((err: unknown) => fromServiceError(err));
    expect(refused).toMatchObject({ code: "RESOURCE_NOT_FOUND", details: { field: "inboxId" } });
    expect(sys.sandbox.control.calls()).toEqual([]);
    await expect(sys.ledger.client.getWallet({ userId: "other" })).resolves.toMatchObject({
      wallet: { balanceCredits: 3_000, heldCredits: 0 },
    });

    // Without an inbox, the AgentMail route (cheapest) cannot run the input, and another sender serves it.
    const plain = await sys.executor.client.execute(send("owner", {}));
    expect(plain.routeKey).not.toBe("email.send.agentmail.mpp");
  });
});
