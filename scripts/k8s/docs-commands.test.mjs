// The operators' documents name commands the code has: every `npm run <script>` in the MongoDB
// runbook, the backup page and the production checklist is a script of package.json, every
// `npm run ledger -- <command>` one that scripts/ledger.mjs runs (its usage lists it and it does not
// answer "unknown command"), and the Job's entry point is the compiled file the runbook names.
// Run: node --test scripts/k8s/*.test.mjs (needs services/ledger built, as CI does first)
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const DOCS = ["docs/mongodb-runbook.md", "docs/backup-and-restore.md", "docs/production-checklist.md"];
const scripts = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).scripts;
const text = Object.fromEntries(DOCS.map((d) => [d, readFileSync(join(REPO_ROOT, d), "utf8")]));

/** Runs the ledger CLI with `args` and no MongoDB or ledger configured. */
function ledgerCli(...args) {
  const env = { ...process.env };
  delete env.MONGODB_URI;
  env.LEDGER_ADDR = "127.0.0.1:1"; // a command that calls the ledger fails at once, never reaching a real one
  return spawnSync(process.execPath, [join(REPO_ROOT, "scripts/ledger.mjs"), ...args], { env, encoding: "utf8", timeout: 20_000 });
}

test("every `npm run <script>` in the operators' documents is a script of package.json", () => {
  for (const [doc, body] of Object.entries(text)) {
    const named = [...body.matchAll(/npm run (?:--silent )?([a-z][\w:-]*)/g)].map((m) => m[1]);
    for (const script of named) assert.ok(Object.hasOwn(scripts, script), `${doc}: npm run ${script}`);
  }
  assert.match(text["docs/mongodb-runbook.md"], /npm run ledger -- migrate --status/);
});

test("every `npm run ledger -- <command>` they name is one the ledger CLI runs", () => {
  const usage = ledgerCli("--help").stdout;
  const commands = new Set();
  for (const body of Object.values(text)) for (const m of body.matchAll(/npm run ledger -- ([a-z-]+)/g)) commands.add(m[1]);
  assert.ok(commands.has("migrate") && commands.has("reconcile"), [...commands].join(" "));
  for (const command of commands) {
    assert.match(usage, new RegExp(`npm run ledger -- ${command}\\b`), `usage lists ${command}`);
    assert.doesNotMatch(ledgerCli(command).stderr, /unknown command/, command);
  }
});

test("migrate is wired to the compiled migrations: without MONGODB_URI it says so and exits 2", () => {
  assert.match(text["docs/mongodb-runbook.md"], /node services\/ledger\/dist\/migrate\.js/);
  assert.ok(existsSync(join(REPO_ROOT, "services/ledger/dist/migrate.js")), "services/ledger built");
  const run = ledgerCli("migrate");
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /MONGODB_URI is not set/);
});
