import type { RailResponse } from "../domain/rail-port";
import type { ApprovalRule } from "../domain/provider-port";
import { defineProvider, type CapabilityHandler } from "./provider-table";
import { providerAdapter } from "./registry";

/** A handler that answers which capability it was asked for. */
const echo = (name: string): CapabilityHandler => ({
  request: (_input, ctx) => ({ method: "POST", url: `${ctx.baseUrl}/${name}`, headers: {} }),
  parse: () => ({ status: "completed", data: { by: name } }),
});
const ok: RailResponse = { status: 200, headers: {}, body: {} };
const crawl = async () => ({ status: "completed" as const, data: { by: "crawler" } });

const acme = defineProvider({
  key: "acme",
  defaultBaseUrls: { direct: "https://acme.example" },
  capabilities: {
    "models.chat.complete": echo("chat"),
    "email.send": {
      ...echo("mail"),
      resourceFields: { inboxId: "email.inbox" },
      senderFields: [{ field: "from", kind: "email.inbox", sendsAs: true }],
    },
    "web.crawl": { request: echo("crawl").request, flow: crawl },
  },
});

describe("a provider table", () => {
  it("is an adapter under its key", () => {
    expect(providerAdapter(acme).providerKey).toBe("acme");
  });

  it("implements every capability of its table and declares their fields and flows by capability", () => {
    const adapter = providerAdapter(acme);
    expect(adapter.capabilityKeys).toEqual(["models.chat.complete", "email.send", "web.crawl"]);
    expect(adapter.resourceFields).toEqual({ "email.send": { inboxId: "email.inbox" } });
    expect(adapter.senderFields).toEqual({ "email.send": [{ field: "from", kind: "email.inbox", sendsAs: true }] });
    expect(adapter.flows).toEqual({ "web.crawl": crawl });
    expect(adapter.approvals).toBeUndefined();
  });

  it("hands each capability's request and answer to its own handler", () => {
    const adapter = providerAdapter(acme);
    expect(adapter.buildRequest("email.send", {}, { baseUrl: "https://x" }).url).toBe("https://x/mail");
    expect(adapter.parseResponse("models.chat.complete", ok, {}).data).toEqual({ by: "chat" });
  });

  it("refuses a capability not in its table (a routing bug), building and parsing", () => {
    const adapter = providerAdapter(acme);
    const refusal = expect.objectContaining({ kind: "unsupported_capability", providerKey: "acme" });
    expect(() => adapter.buildRequest("text.moderate", {}, { baseUrl: "https://x" })).toThrow(refusal);
    expect(() => adapter.parseResponse("text.moderate", ok, {})).toThrow(refusal);
  });

  it("names a flow's main request, and refuses to parse one answer of a capability that runs as a flow", () => {
    const adapter = providerAdapter(acme);
    expect(adapter.buildRequest("web.crawl", {}, { baseUrl: "https://x" }).url).toBe("https://x/crawl");
    expect(() => adapter.parseResponse("web.crawl", ok, {})).toThrow(
      expect.objectContaining({ kind: "unsupported_capability", message: expect.stringContaining("runs as a flow") }),
    );
  });

  it("builds a table that depends on account settings, and its approvals, from the settings it is registered with", () => {
    const rule = (ttlMs: number): ApprovalRule => ({
      issuedBy: "a.quote",
      requiredBy: "a.send",
      field: "quoteId",
      expiresField: "quoteExpiresAt",
      idPrefix: "q",
      ttlMs,
      subject: () => "",
    });
    const configured = defineProvider({
      key: "acme",
      defaultBaseUrls: {},
      capabilities: (settings) => ({ "a.quote": echo(settings.plan ?? "none"), "a.send": echo("send") }),
      approvals: (settings) => [rule(Number(settings.ttlMs ?? 1))],
    });
    const adapter = providerAdapter(configured, { plan: "pro", ttlMs: "5000" });
    expect(adapter.buildRequest("a.quote", {}, { baseUrl: "https://x" }).url).toBe("https://x/pro");
    expect(adapter.approvals?.map((a) => a.ttlMs)).toEqual([5000]);
    expect(providerAdapter(configured).buildRequest("a.quote", {}, { baseUrl: "https://x" }).url).toBe("https://x/none");
  });
});
