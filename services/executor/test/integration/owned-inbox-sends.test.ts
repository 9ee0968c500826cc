// Sending from an owned inbox, on a deployment where the AgentMail send route is managed and live (the
// shipped catalog still lists it as pending): the inbox a user bought is recorded as theirs with the
// capture, so they can send from it at once, unpinned, and it is sent from that inbox and no other
// sender; another user naming it gets RESOURCE_NOT_FOUND and the vendor sees no call.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromServiceError } from "@agentic/platform";
import type { ExecuteRequest } from "@agentic/proto/executor/v1";
import { DEFAULT_CATALOG_DIR } from "@agentic/catalog/testing";
import { startExecutorSystem, type ExecutorSystem } from "../system";

/** The shipped catalog with email.send.agentmail.mpp managed and live. */
function catalogWithOwnedInboxSends(): string {
  const dir = mkdtempSync(join(tmpdir(), "catalog-owned-inbox-"));
  cpSync(DEFAULT_CATALOG_DIR, dir, { recursive: true });
  const file = join(dir, "email.yaml");
  const yaml = readFileSync(file, "utf8");
  const pending = "      - providerKey: agentmail\n        networkKey: mpp\n        routeMode: byo\n        status: pending\n";
  if (!yaml.includes(pending))
    throw new Error("the shipped email.yaml no longer lists the AgentMail send route as byo/pending: update this test");
  writeFileSync(
    file,
    yaml.replace(pending, "      - providerKey: agentmail\n        networkKey: mpp\n        routeMode: managed\n        status: live\n"),
  );
  return dir;
}

describe("sending from an owned inbox", () => {
  let sys: ExecutorSystem;
  let catalogDir: string;
  const send = (userId: string, extra: Record<string, unknown>): ExecuteRequest => ({
    userId,
    domainKey: "email",
    capabilityId: "send",
    input: { to: "ada@example.com", subject: "Hi", text: "Hello", ...extra },
  });
  const grant = (userId: string, credits: number) =>
    sys.ledger.client.grantCredits({ grantId: `grant-${userId}`, userId, amountCredits: credits, reason: "test" });

  beforeAll(async () => {
    catalogDir = catalogWithOwnedInboxSends();
    sys = await startExecutorSystem({ catalogDir });
  });
  afterAll(async () => {
    await sys?.stop();
    rmSync(catalogDir, { recursive: true, force: true });
  });
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
