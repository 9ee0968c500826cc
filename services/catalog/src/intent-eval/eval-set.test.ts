// The intent evaluation set measures generalization: no task repeats (or nearly repeats) an example
// task of the shipped catalog, every live and recommend-only capability has at least 10 tasks, at
// least 100 tasks are out of scope, and every labelled capability exists.
import { INTENT_ROUTABLE_STATUSES } from "@agentic/intent";
import { DEFAULT_CATALOG_DIR, loadCatalog } from "../source";
import { loadEvalSet } from "./eval-set";
import { isNearDuplicate, taskSimilarity } from "./near-duplicates";
import { intentSourcesOf } from "./sources";

const sources = intentSourcesOf(loadCatalog(DEFAULT_CATALOG_DIR));
const tasks = loadEvalSet();

describe("the intent evaluation set", () => {
  it("has at least 10 tasks per live or recommend-only capability and at least 100 out-of-scope tasks", () => {
    const routable = sources.filter((s) => INTENT_ROUTABLE_STATUSES.has(s.capability.status));
    const known = new Set(routable.map((s) => s.capability.capabilityKey));
    for (const t of tasks) if (t.expected) expect([t.expected, known.has(t.expected)]).toEqual([t.expected, true]);
    for (const key of known) expect([key, tasks.filter((t) => t.expected === key).length >= 10]).toEqual([key, true]);
    expect(tasks.filter((t) => t.expected === undefined).length).toBeGreaterThanOrEqual(100);
  });

  it("never repeats or nearly repeats an example task of the catalog", () => {
    const examples = sources.flatMap((s) => s.capability.exampleTasks ?? []);
    expect(examples.length).toBeGreaterThan(150);
    const clashes = tasks.flatMap((t) => examples.filter((e) => isNearDuplicate(t.task, e)).map((e) => `${t.task} ~ ${e}`));
    expect(clashes).toEqual([]);
  });

  it("has no task twice", () => {
    const seen = new Set<string>();
    for (const t of tasks) {
      expect(seen.has(t.task.toLowerCase())).toBe(false);
      seen.add(t.task.toLowerCase());
    }
  });
});

describe("near-duplicate test", () => {
  it("catches a copy with other case and punctuation, and a one-word edit", () => {
    expect(isNearDuplicate("Tell Ana the invoice is attached!", "tell ana the invoice is attached")).toBe(true);
    expect(isNearDuplicate("tell Ana the invoices are attached", "tell ana the invoice is attached")).toBe(true);
  });

  it("lets a paraphrase pass", () => {
    expect(taskSimilarity("let bob know the meeting moved", "tell ana the invoice is attached")).toBeLessThan(0.8);
    expect(isNearDuplicate("what time is it in Tokyo", "what's the time in London right now")).toBe(false);
  });
});
