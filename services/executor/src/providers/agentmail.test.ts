import { MPP_RECIPIENT } from "@agentic/sandbox";
import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { agentmailProvider } from "./agentmail";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(agentmailProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("AgentMail adapter (email.inbox.buy, email.send)", () => {
  it("builds POST /v0/inboxes with snake_case fields and the idempotency key as client_id", () => {
    expect(
      adapter.buildRequest(
        "email.inbox.buy",
        { username: "support", displayName: "Support Agent" },
        { baseUrl: "https://mpp.api.agentmail.to", idempotencyKey: "exe_1" },
      ),
    ).toEqual({
      method: "POST",
      url: "https://mpp.api.agentmail.to/v0/inboxes",
      headers: {},
      body: { username: "support", display_name: "Support Agent", client_id: "exe_1" },
    });
    expect(
      adapter.buildRequest("email.inbox.buy", {}, { baseUrl: "https://api.agentmail.to", credentials: { apiKey: "am_1" } }).headers,
    ).toEqual({ Authorization: "Bearer am_1" });
  });

  it("normalizes the Inbox and maps {name, message} errors", () => {
    expect(
      adapter.parseResponse(
        "email.inbox.buy",
        response(200, {
          pod_id: "p",
          inbox_id: "bot@agentmail.to",
          display_name: null,
          client_id: null,
          created_at: "2026-11-22T00:00:00Z",
          updated_at: "2026-11-22T00:00:00Z",
        }),
        {},
      ),
    ).toMatchObject({
      status: "created",
      data: { inboxId: "bot@agentmail.to", address: "bot@agentmail.to", displayName: null, createdAt: "2026-11-22T00:00:00Z" },
      // The inbox lives on our account: the capture records it as the buyer's.
      createdResources: [{ kind: "email.inbox", resourceId: "bot@agentmail.to" }],
    });
    expect(() =>
      adapter.parseResponse("email.inbox.buy", response(409, { name: "AlreadyExistsError", message: "Inbox exists" }), {}),
    ).toThrow(expect.objectContaining({ blame: "input", vendorCode: "AlreadyExistsError" }));
    expect(() => adapter.parseResponse("email.inbox.buy", response(200, {}), {})).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("buys an inbox over MPP, and a retried execution gets the same inbox back", async () => {
    const first = await routes.execute("agentmail", "mpp", "email.inbox.buy", { username: "agent-007" }, "exe_inbox_1");
    expect(first.result.data).toMatchObject({ inboxId: "agent-007@agentmail.to", address: "agent-007@agentmail.to" });
    expect(first.res.payment).toMatchObject({ rail: "mpp", amountAtomic: "500000", payTo: MPP_RECIPIENT, settlement: "settled" });
    const again = await routes.execute("agentmail", "mpp", "email.inbox.buy", { username: "agent-007" }, "exe_inbox_1");
    expect(again.result.data).toMatchObject({ inboxId: "agent-007@agentmail.to" });
    // A different execution asking for the same address is refused, not given someone else's inbox.
    expect(await routes.executeError("agentmail", "mpp", "email.inbox.buy", { username: "agent-007" })).toMatchObject({
      status: 409,
      blame: "input",
    });
  });

  it("sends from an owned inbox to /v0/inboxes/{inboxId}/messages/send, ignoring from", () => {
    const req = adapter.buildRequest(
      "email.send",
      { inboxId: "bot@agentmail.to", to: "a@example.com", from: "x@y.z", subject: "Hi", text: "Hi", replyTo: "me@acme.dev" },
      { baseUrl: "https://mpp.api.agentmail.to" },
    );
    expect(req).toEqual({
      method: "POST",
      url: "https://mpp.api.agentmail.to/v0/inboxes/bot%40agentmail.to/messages/send",
      headers: {},
      body: { to: ["a@example.com"], reply_to: ["me@acme.dev"], subject: "Hi", text: "Hi" },
    });
    expect(() => adapter.buildRequest("email.send", { to: "a@example.com", subject: "Hi", text: "Hi" }, { baseUrl: "https://x" })).toThrow(
      /inboxId/,
    );
    expect(adapter.parseResponse("email.send", response(200, { message_id: "<m1@agentmail.to>", thread_id: "t1" }), {})).toEqual({
      status: "sent",
      providerMessageId: "<m1@agentmail.to>",
      data: { messageId: "<m1@agentmail.to>", threadId: "t1" },
    });
  });

  it("buys an inbox, then sends from it, both over MPP at their own prices", async () => {
    const bought = await routes.execute("agentmail", "mpp", "email.inbox.buy", { username: "sender-1" });
    const sent = await routes.execute("agentmail", "mpp", "email.send", {
      inboxId: bought.result.data.inboxId,
      to: "a@example.com",
      subject: "Hi",
      html: "<p>Hi</p>",
      attachments: [{ filename: "a.txt", contentBase64: "aGk=" }],
    });
    expect(sent.result).toMatchObject({ status: "sent", data: { threadId: expect.any(String) } });
    expect([bought.res.payment?.amountAtomic, sent.res.payment?.amountAtomic]).toEqual(["500000", "2000"]);
  });

  it("declares inboxId as an owned inbox, and never puts an inboxId that is not one plain path segment in the URL", () => {
    expect(adapter.resourceFields).toEqual({ "email.send": { inboxId: "email.inbox" } });
    const send = (inboxId: string) => () =>
      adapter.buildRequest(
        "email.send",
        { inboxId, to: "a@example.com", subject: "Hi", text: "Hi" },
        { baseUrl: "https://mpp.api.agentmail.to" },
      );
    for (const inboxId of ["..", ".", "a/b", "..%2fadmin", "%2e%2e", "a b", "a\\b", "x\u0000y", "bot@agentmail.to?x=1", "bot#x"]) {
      expect(send(inboxId)).toThrow(expect.objectContaining({ kind: "invalid_input", field: "inboxId", blame: "input" }));
    }
    expect(send("first.last+tag@agentmail.to")().url).toBe(
      "https://mpp.api.agentmail.to/v0/inboxes/first.last%2Btag%40agentmail.to/messages/send",
    );
  });

  it("reports an unverified domain as the caller's problem", async () => {
    expect(await routes.executeError("agentmail", "mpp", "email.inbox.buy", { username: "x", domain: "unverified.example" })).toMatchObject(
      { kind: "http_4xx", status: 404, blame: "input" },
    );
  });
});
