// The labelled intent evaluation set (eval/intent/): in-scope tasks by the capability they must find,
// with the constraints each states, and out-of-scope tasks nothing in the catalog does.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import type { TaskConstraints } from "@agentic/intent";

export const EVAL_DIR = resolve(__dirname, "../../eval/intent");

export interface LabelledTask {
  task: string;
  /** The capability the task must find; undefined for an out-of-scope task (the answer must abstain). */
  expected: string | undefined;
  /** Every constraint the task states (in-scope tasks). */
  constraints: TaskConstraints;
}

type Entry = string | { task: string; constraints?: Partial<TaskConstraints> };

export function loadEvalSet(dir = EVAL_DIR): LabelledTask[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .sort();
  const tasks: LabelledTask[] = [];
  for (const file of files) {
    const data: unknown = parse(readFileSync(join(dir, file), "utf8"));
    if (Array.isArray(data)) {
      for (const entry of data as Entry[]) tasks.push(labelled(entry, undefined));
    } else {
      for (const [capabilityKey, entries] of Object.entries(data as Record<string, Entry[]>)) {
        for (const entry of entries) tasks.push(labelled(entry, capabilityKey));
      }
    }
  }
  return tasks;
}

function labelled(entry: Entry, expected: string | undefined): LabelledTask {
  const { task, constraints = {} } = typeof entry === "string" ? { task: entry } : entry;
  if (typeof task !== "string") throw new TypeError(`eval entry under ${expected ?? "out of scope"} has no task: ${JSON.stringify(entry)}`);
  return {
    task,
    expected,
    constraints: {
      optimizationPreferences: constraints.optimizationPreferences ?? [],
      ...(constraints.maxPriceCredits !== undefined ? { maxPriceCredits: constraints.maxPriceCredits } : {}),
      ...(constraints.provider !== undefined ? { provider: constraints.provider } : {}),
      fields: constraints.fields ?? {},
    },
  };
}
