import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { CapabilityDispatchAdapter } from "./capability-dispatch";

/** An adapter that answers which adapter and capability it was asked for. */
function fake(name: string, capabilityKeys: string[], resourceFields?: ProviderAdapter["resourceFields"]): ProviderAdapter {
  return {
    providerKey: "acme",
    capabilityKeys,
    ...(resourceFields ? { resourceFields } : {}),
    buildRequest: (capabilityKey) => ({ method: "POST", url: `https://acme.example/${name}/${capabilityKey}`, headers: {} }),
    parseResponse: (capabilityKey) => ({ status: "completed", data: { by: name, capabilityKey } }),
  };
}
const ok: RailResponse = { status: 200, headers: {}, body: {} };

describe("CapabilityDispatchAdapter (one provider, several adapters)", () => {
  const adapter = new CapabilityDispatchAdapter("acme", [
    fake("chat", ["models.chat.complete"]),
    fake("mail", ["email.send", "email.inbox.buy"], { "email.send": { inboxId: "email.inbox" } }),
  ]);

  it("implements every capability of its adapters and declares their owned-resource fields", () => {
    expect(adapter.capabilityKeys).toEqual(["models.chat.complete", "email.send", "email.inbox.buy"]);
    expect(adapter.resourceFields).toEqual({ "email.send": { inboxId: "email.inbox" } });
  });

  it("hands each capability's request and answer to the adapter implementing it", () => {
    expect(adapter.buildRequest("email.send", {}, { baseUrl: "https://x" }).url).toBe("https://acme.example/mail/email.send");
    expect(adapter.parseResponse("models.chat.complete", ok, {}).data).toEqual({ by: "chat", capabilityKey: "models.chat.complete" });
  });

  it("keeps each adapter's multi-request flows, by capability", async () => {
    const crawl = async () => ({ status: "completed" as const, data: { by: "crawler" } });
    const withFlow = new CapabilityDispatchAdapter("acme", [
      fake("chat", ["models.chat.complete"]),
      { ...fake("crawler", ["web.crawl"]), flows: { "web.crawl": crawl } },
    ]);
    expect(Object.keys(withFlow.flows)).toEqual(["web.crawl"]);
    expect(withFlow.flows["web.crawl"]).toBe(crawl);
  });

  it("refuses a capability none implements (a routing bug), and two adapters claiming one capability", () => {
    expect(() => adapter.buildRequest("text.moderate", {}, { baseUrl: "https://x" })).toThrow(
      expect.objectContaining({ kind: "unsupported_capability", providerKey: "acme" }),
    );
    expect(() => new CapabilityDispatchAdapter("acme", [fake("a", ["email.send"]), fake("b", ["email.send"])])).toThrow(/same capability/);
  });
});
