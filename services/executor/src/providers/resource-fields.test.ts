import { createProviderRegistry } from "./registry";

// Every adapter's fields count, even with no provider configured.
const { resourceFieldsOf } = createProviderRegistry({});

describe("owned-resource fields, as the adapters declare them", () => {
  it("knows email.send's inboxId names an AgentMail inbox, and other capabilities name none", () => {
    expect(resourceFieldsOf("email.send")).toEqual([{ field: "inboxId", kind: "email.inbox", providerKey: "agentmail" }]);
    expect(resourceFieldsOf("email.inbox.buy")).toEqual([]);
    expect(resourceFieldsOf("geo.time.current")).toEqual([]);
  });
});
