import { daysOf, summarizeUsage } from "./usage-summary";

describe("summarizeUsage", () => {
  const range = { from: new Date("2026-11-01T12:00:00Z"), to: new Date("2026-11-04T00:00:00Z") };

  it("lists every UTC day the range touches, the first one partly", () => {
    expect(daysOf(range)).toEqual(["2026-11-01", "2026-11-02", "2026-11-03"]);
  });

  it("folds the store's totals per day (zero days kept), capability, route and agent, dearest first", () => {
    const s = summarizeUsage(range, [
      { day: "2026-11-01", capabilityKey: "email.send", routeKey: "email.send.resend", agentName: "scout", credits: 10, count: 1 },
      { day: "2026-11-03", capabilityKey: "email.send", routeKey: "email.send.postmark", credits: 14, count: 2 },
      { day: "2026-11-03", capabilityKey: "search.web", routeKey: "search.web.exa", agentName: "scout", credits: 3, count: 1 },
    ]);
    expect([s.totalCredits, s.count]).toEqual([27, 4]);
    expect(s.byDay.map((d) => [d.key, d.credits, d.count])).toEqual([
      ["2026-11-01", 10, 1],
      ["2026-11-02", 0, 0],
      ["2026-11-03", 17, 3],
    ]);
    expect(s.byCapability.map((g) => [g.key, g.credits])).toEqual([
      ["email.send", 24],
      ["search.web", 3],
    ]);
    expect(s.byRoute.map((g) => g.key)).toEqual(["email.send.postmark", "email.send.resend", "search.web.exa"]);
    expect(s.byAgent.map((g) => [g.key, g.credits])).toEqual([
      ["", 14],
      ["scout", 13],
    ]);
  });
});
