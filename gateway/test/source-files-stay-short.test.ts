// No source file of the gateway or of the ledger grows past 600 lines: a file that long does several
// jobs, and is split by job (the document by resource, the ledger's use cases from their limits).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const MAX_LINES = 600;
const ROOT = join(__dirname, "..", "..");
const TREES = ["gateway/src", "services/ledger/src"];

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx|js|mjs)$/.test(entry.name)) yield path;
  }
}

it.each(TREES)("every file under %s is at most 600 lines", (tree) => {
  const files = [...sourceFiles(join(ROOT, tree))];
  expect(files.length).toBeGreaterThan(10);
  const long = files
    .map((file) => ({ file: file.slice(ROOT.length + 1), lines: readFileSync(file, "utf8").split("\n").length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES);
  expect(long).toEqual([]);
});
