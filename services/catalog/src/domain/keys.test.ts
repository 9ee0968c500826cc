import { capabilityIdOf, capabilityKeyOf, productKeyOf, routeKeyOf } from "./keys";

describe("keys", () => {
  it("builds capability ids and keys from dotted parts", () => {
    expect(capabilityIdOf("time.current")).toBe("time-current");
    expect(capabilityIdOf("send")).toBe("send");
    expect(capabilityKeyOf("geo", "time.current")).toBe("geo.time.current");
    expect(productKeyOf("geo", "time-current")).toBe("geo.time-current");
  });

  it("adds the network to route keys except for direct routes", () => {
    expect(routeKeyOf("email.send", "resend", "direct")).toBe("email.send.resend");
    expect(routeKeyOf("search.answer", "exa", "mpp")).toBe("search.answer.exa.mpp");
    expect(routeKeyOf("enrichment.people.search", "apollo", "agentcash")).toBe("enrichment.people.search.apollo.agentcash");
  });
});
