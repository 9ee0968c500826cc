// The intent index on a small catalog: ranking with stemming and typos, abstention, the domain filter,
// explanations, and the same answer for the same task.
import { IntentIndex } from "./intent-index";
import { INTENT_SCORING } from "./score";
import type { IntentSource } from "./documents";

const source = (
  domainKey: string,
  id: string,
  label: string,
  description: string,
  examples: string[],
  synonyms: string[],
): IntentSource => ({
  capability: {
    capabilityKey: `${domainKey}.${id.replaceAll("-", ".")}`,
    capabilityId: id,
    domainKey,
    label,
    description,
    status: "live",
    startingPriceCredits: 3,
    contractEndpoint: `/api/domains/${domainKey}/capabilities/${id}/contract`,
    recommendEndpoint: `/api/domains/${domainKey}/capabilities/${id}/recommend`,
    exampleTasks: examples,
    synonyms,
  },
  routes: [{ providerKey: "acme", providerLabel: "Acme" }],
  execute: { fields: [{ name: "to", type: "string", format: "email", required: true }] },
});

const SOURCES: IntentSource[] = [
  source(
    "email",
    "send",
    "Email Send",
    "Send one outbound email.",
    ["mail the report to my boss", "tell a customer their order shipped"],
    ["mail", "message", "notify"],
  ),
  source(
    "geo",
    "time-current",
    "Current Time",
    "Current local time for a place or time zone.",
    ["what time is it in Tokyo", "local time in Paris"],
    ["clock", "hour", "timezone"],
  ),
  source(
    "web",
    "screenshot",
    "Web Screenshot",
    "Capture a PNG screenshot of a web page.",
    ["take a screenshot of a homepage", "capture a page as an image"],
    ["capture", "snapshot", "png"],
  ),
];
const index = new IntentIndex(SOURCES, "v1");

describe("IntentIndex", () => {
  it("finds the capability by stems, synonyms and a typo", () => {
    expect(index.query({ task: "emailing the weekly report to my manager", limit: 3 }).matches[0]?.capabilityKey).toBe("email.send");
    expect(index.query({ task: "what's the clock saying in Lima", limit: 3 }).matches[0]?.capabilityKey).toBe("geo.time.current");
    expect(index.query({ task: "screnshot our landing page", limit: 3 }).matches[0]?.capabilityKey).toBe("web.screenshot");
    expect(index.query({ task: "tiem in Oslo", limit: 3 }).matches[0]?.capabilityKey).toBe("geo.time.current");
  });

  it("abstains on a task nothing does, and on a task of glue words only", () => {
    expect(index.query({ task: "refund the last card payment", limit: 3 }).abstained).toBe(true);
    expect(index.query({ task: "can you please do it for me", limit: 3 })).toMatchObject({ abstained: true, matches: [] });
  });

  it("weighs a product the catalog does not know in full, and a place it is asked about lightly", () => {
    const [inPlace] = index.signals("local time in Reykjavik", 1);
    const [inProduct] = index.signals("local time in Timewarpr", 1);
    expect(inPlace).toMatchObject({ capabilityKey: "geo.time.current" });
    expect(inProduct!.coverage).toBeLessThan(inPlace!.coverage);
    expect(index.query({ task: "local time in Reykjavik", limit: 1 }).abstained).toBe(false);
  });

  it("answers every field, scores in 0..1 best first, explains the match and fills the contract from the words", () => {
    const answer = index.query({ task: "mail ana@example.com the report, cheapest", limit: 2 });
    expect(answer).toMatchObject({ task: "mail ana@example.com the report, cheapest", abstained: false, catalogVersion: "v1" });
    expect(answer.matches[0]).toMatchObject({
      capabilityKey: "email.send",
      domainKey: "email",
      capabilityId: "send",
      label: "Email Send",
      status: "live",
      startingPriceCredits: 3,
      contractPath: "/api/domains/email/capabilities/send/contract",
      recommendPath: "/api/domains/email/capabilities/send/recommend",
    });
    expect(answer.matches[0]!.why).toMatch(/^matched .*mail \(.*synonyms/);
    const scores = answer.matches.map((m) => m.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const s of scores) expect(s >= 0 && s <= 1).toBe(true);
    expect(answer.constraints).toEqual({ optimizationPreferences: ["cost"], fields: { to: "ana@example.com" } });
  });

  it("keeps to one domain when asked", () => {
    const answer = index.query({ task: "take a screenshot of the clock page", limit: 5, domainKey: "geo" });
    for (const m of answer.matches) expect(m.domainKey).toBe("geo");
  });

  it("gives the same answer for the same task", () => {
    const task = { task: "capture a snapshot of the site and mail it", limit: 3 };
    expect(index.query(task)).toEqual(index.query(task));
  });

  it("finds every capability the words reach, best first, and none for words the catalog lacks", () => {
    expect(index.find("screenshot")).toEqual(["web.screenshot"]);
    expect(index.find("capture a page and mail it")).toEqual(expect.arrayContaining(["web.screenshot", "email.send"]));
    expect(index.find("capture a page and mail it")).not.toContain("geo.time.current");
    expect(index.find("zebra")).toEqual([]);
  });
});

describe("one index for intent routing and the search box", () => {
  const withStatus = (s: IntentSource, status: string): IntentSource => ({ ...s, capability: { ...s.capability, status } });
  const mixed = new IntentIndex(
    [
      source("email", "send", "Email Send", "Send one outbound email.", ["mail the report to my boss"], ["mail"]),
      withStatus(source("speech", "transcribe", "Speech Transcribe", "Text of a recording.", ["transcribe this recording"], []), "planned"),
      withStatus(source("speech", "dub", "Speech Dub", "Dub a recording.", ["dub this recording"], []), "pending"),
      source("text", "analyze", "Text Analyze", "Analyze a recording's transcript.", ["analyze this transcript"], []),
    ],
    "v2",
  );
  const unroutable = ["speech.transcribe", "speech.dub"];

  it("holds every status, and the search box finds a planned or pending capability by its words", () => {
    expect(mixed.size).toBe(4);
    const found = mixed.find("transcribe this recording");
    expect(found[0]).toBe("speech.transcribe");
    expect([...found].sort()).toEqual(["speech.dub", "speech.transcribe", "text.analyze"]);
    expect(mixed.find("dub this recording")[0]).toBe("speech.dub");
  });

  it("never routes a task to a capability with no route to recommend, even when its words are the task", () => {
    for (const task of ["transcribe this recording", "dub this recording"]) {
      const answer = mixed.query({ task, limit: 20 });
      expect(answer.matches.map((m) => m.capabilityKey)).toEqual(["text.analyze"]);
      for (const key of unroutable) expect(mixed.signals(task, 20).map((s) => s.capabilityKey)).not.toContain(key);
      expect(mixed.query({ task, limit: 5, domainKey: "speech" }).matches).toEqual([]);
    }
  });
});

describe("IntentIndex at work", () => {
  it("ranks as MiniSearch's own OR search does, from the kept postings of each term", () => {
    // A task with no repeated word: MiniSearch's score is the sum of its terms' scores times how many matched.
    const minisearch = (index as unknown as { search: { search(q: string, o: object): Array<{ id: number; score: number }> } }).search;
    const task = "capture the page as an image and mail it";
    const theirs = minisearch.search(task, { boost: INTENT_SCORING.fieldBoost, prefix: false });
    const ours = index.signals(task, 3);
    expect(ours).toHaveLength(theirs.length);
    expect(theirs.map((r) => r.score)).toEqual(expect.arrayContaining(ours.map((s) => expect.closeTo(s.bm25, 6))));
  });

  it("lifts the capability whose own phrase the task repeats in order", () => {
    const [top] = index.signals("capture a page as an image", 1);
    expect(top).toMatchObject({ capabilityKey: "web.screenshot" });
    expect(top!.pairs).toBeGreaterThan(0);
  });

  it("lists at most `limit` matches, best first, the same as the search box's order", () => {
    const answer = index.query({ task: "capture a page and mail it", limit: 1 });
    expect(answer.matches).toHaveLength(1);
    expect(answer.matches[0]!.capabilityKey).toBe(index.find("capture a page and mail it")[0]);
  });
});

describe("IntentIndex built with a collection between its phases", () => {
  it("calls it between each phase and answers exactly as one built without", () => {
    let collections = 0;
    const collected = new IntentIndex(SOURCES, "v1", undefined, { collectGarbage: () => collections++ });
    expect(collections).toBe(3);
    for (const task of ["mail the report to ana@example.com", "what time is it in tokio", "nothing at all here"])
      expect(collected.query({ task, limit: 3 })).toEqual(index.query({ task, limit: 3 }));
    expect(collected.find("time")).toEqual(index.find("time"));
  });
});
