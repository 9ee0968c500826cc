// Where the repository and the bench's own files are, and a require rooted at the repository
// (the workspace packages and autocannon are installed at the root).
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
export const ROOT = join(BENCH_DIR, "..");
export const RESULTS_DIR = join(BENCH_DIR, "results");
export const rootRequire = createRequire(join(ROOT, "package.json"));
