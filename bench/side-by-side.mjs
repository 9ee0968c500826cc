// Two builds of the system side by side: this checkout and an earlier commit, both started (each
// with its own nats-server, ledger file and ports), the same load sent to one then the other in short
// slices, alternating which goes first, and each process's CPU time per answered request read from
// /proc for every slice. On a shared 2-core VM, back-to-back runs of the same code move by ±10 %
// (the machine's speed drifts between runs); two systems measured in alternating slices drift
// together, so the per-slice ratio resolves a change of a few percent.
//
//   npm run bench:side-by-side -- <commit> [--scenario execute-chat|recommend] [--slices 10] [--slice-seconds 3]
//
// The commit is exported with `git archive` into the OS temp dir, given this checkout's installed
// packages (hard links) and built once; a later run against the same commit reuses it. This checkout
// is built first, as `npm run bench` does. Not part of `npm test`.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runHttpLoad } from "./lib/http-load.mjs";
import { ROOT } from "./lib/paths.mjs";
import { cpuTimeUs } from "./lib/proc-sampler.mjs";
import { productionNodeArgs } from "./lib/production-node-flags.mjs";
import { chatExecuteRequest, fundDevWallet, LIMITS_OUT_OF_REACH, PRODUCTION_SAMPLING, recommendRequest } from "./lib/scenario-requests.mjs";

/** The load of each scenario, as `npm run bench` sends it. */
const SCENARIOS = {
  // The Portkey comparison's execute: a chat completion pinned to the sandbox's OpenAI route, a fresh Idempotency-Key each.
  "execute-chat": (base, key) => ({ ...chatExecuteRequest(base, key), connections: 16 }),
  // A catalog read answered from the gateway's memory.
  domains: (base) => ({ url: `${base}/domains`, connections: 32 }),
  recommend: (base, key) => ({ ...recommendRequest(base, key), connections: 32 }),
};

/** As `npm run bench` runs the system: production's head sampling, no exporter, per-key limits out of reach. */
const SYSTEM_ENV = { ...PRODUCTION_SAMPLING, ...LIMITS_OUT_OF_REACH, LOG_LEVEL: "warn" };

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const git = (...args) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();

/** A built copy of commit `sha`, made once: its tree, this checkout's node_modules (root and per workspace) as hard links, built. */
function preparedCheckout(sha) {
  const dir = join(tmpdir(), `agentic-side-by-side-${sha.slice(0, 12)}`);
  if (existsSync(join(dir, ".built"))) return { sha, dir };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log(`exporting ${sha.slice(0, 12)} into ${dir} and building it (once)...`);
  execFileSync("sh", ["-c", `git archive ${sha} | tar -x -C "${dir}"`], { cwd: ROOT, stdio: "inherit" });
  for (const modules of installedModuleDirs()) {
    if (existsSync(join(dir, modules, ".."))) execFileSync("cp", ["-al", join(ROOT, modules), join(dir, modules)]);
  }
  execFileSync("npx", ["turbo", "run", "build", "--output-logs=errors-only"], { cwd: dir, stdio: "inherit" });
  execFileSync("touch", [join(dir, ".built")]);
  return { sha, dir };
}

/** node_modules of the root and of each workspace folder (npm nests a workspace's own versions there). */
function installedModuleDirs() {
  const dirs = ["node_modules"];
  for (const parent of [".", "services", "packages"]) {
    for (const entry of readdirSync(join(ROOT, parent), { withFileTypes: true })) {
      const modules = join(parent, entry.name, "node_modules");
      if (entry.isDirectory() && entry.name !== "node_modules" && existsSync(join(ROOT, modules))) dirs.push(modules);
    }
  }
  return dirs;
}

async function startBuild(root, label) {
  const { startSystem } = await import(join(root, "scripts/system.mjs"));
  const logDir = mkdtempSync(join(tmpdir(), `agentic-side-by-side-${label}-`));
  const env = { ...process.env, ...SYSTEM_ENV, LEDGER_SQLITE_PATH: join(logDir, "ledger.sqlite") };
  // Each build with the node flags its own manifests run it with in production.
  const system = await startSystem({ env, freePorts: true, logDir, nodeArgs: productionNodeArgs({}, root) });
  const unfunded = await fundDevWallet(system.baseUrl);
  if (unfunded) throw new Error(`${label}: ${unfunded}`);
  const processes = system.processes.map((p) => ({ name: p.name, pid: p.child.pid }));
  if (system.natsProcess) processes.push({ name: "nats", pid: system.natsProcess.pid });
  console.log(`${label}: ${system.baseUrl} (logs in ${logDir})`);
  return { label, system, processes, load: SCENARIOS[scenarioName](system.baseUrl, system.apiKey) };
}

const send = (build, seconds) => runHttpLoad({ ...build.load, durationS: seconds, warmupS: 0 });

/** One slice of load on `build`: req/s, non-2xx answers, and each process's CPU µs per answered request. */
async function slice(build, seconds) {
  const before = new Map(build.processes.map((p) => [p.name, cpuTimeUs(p.pid)]));
  const result = await send(build, seconds);
  const perRequest = Object.fromEntries(build.processes.map((p) => [p.name, (cpuTimeUs(p.pid) - before.get(p.name)) / result.requests]));
  // The vendor stand-in is not ours: left out of the sum.
  const ours = build.processes.filter((p) => p.name !== "sandbox").reduce((sum, p) => sum + perRequest[p.name], 0);
  return { rps: result.rps, non2xx: result.non2xx + result.errors, perRequest, ours };
}

const usage = `usage: npm run bench:side-by-side -- <commit> [--scenario ${Object.keys(SCENARIOS).join("|")}] [--slices 10] [--slice-seconds 3]`;
/** Says what is wrong with the command line, with the usage, and exits 2. */
function refuse(problem) {
  console.error(`${problem}\n${usage}`);
  process.exit(2);
}
let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      scenario: { type: "string", default: "execute-chat" },
      slices: { type: "string", default: "10" },
      "slice-seconds": { type: "string", default: "3" },
    },
  });
} catch (err) {
  refuse(err.message);
}
const { values, positionals } = parsed;
const scenarioName = values.scenario;
const slices = Number(values.slices);
const sliceSeconds = Number(values["slice-seconds"]);
if (positionals.length !== 1) refuse("name one commit to compare this checkout with");
if (!SCENARIOS[scenarioName]) refuse(`unknown scenario "${scenarioName}"`);
if (!Number.isInteger(slices) || slices < 1) refuse(`--slices must be a whole number of at least 1, not "${values.slices}"`);
if (!Number.isInteger(sliceSeconds) || sliceSeconds < 1)
  refuse(`--slice-seconds must be a whole number of at least 1, not "${values["slice-seconds"]}"`);
let commit;
try {
  commit = git("rev-parse", "--verify", "--quiet", `${positionals[0]}^{commit}`);
} catch {
  refuse(`"${positionals[0]}" is not a commit of this repository`);
}

execFileSync("npx", ["turbo", "run", "build", "--output-logs=errors-only"], { cwd: ROOT, stdio: "inherit" });
const earlier = preparedCheckout(commit);
const builds = [];
try {
  builds.push(await startBuild(earlier.dir, "before"), await startBuild(ROOT, "after"));
  for (const build of builds) await send(build, 4); // warm-up, discarded
  const rows = { before: [], after: [] };
  for (let i = 0; i < slices; i++) {
    for (const build of i % 2 === 0 ? builds : [...builds].reverse()) rows[build.label].push(await slice(build, sliceSeconds));
  }
  console.log(`\n${scenarioName}: ${slices} slices of ${sliceSeconds} s each, before = ${earlier.sha.slice(0, 12)}, after = this checkout`);
  console.log("medians over the slices; CPU in µs per answered request; ours = every process but the sandbox");
  const names = builds[0].processes.map((p) => p.name);
  for (const label of ["before", "after"]) {
    const r = rows[label];
    const perProcess = names.map((n) => `${n} ${median(r.map((x) => x.perRequest[n])).toFixed(0)}`).join("  ");
    const failed = r.reduce((sum, x) => sum + x.non2xx, 0);
    console.log(
      `${label.padEnd(6)} req/s ${median(r.map((x) => x.rps)).toFixed(0)}  ours ${median(r.map((x) => x.ours)).toFixed(0)}  ${perProcess}  non-2xx ${failed}`,
    );
  }
  const cpu = rows.after.map((a, i) => a.ours / rows.before[i].ours);
  const rps = rows.after.map((a, i) => a.rps / rows.before[i].rps);
  console.log(
    `after / before, ours per request: median ${median(cpu).toFixed(3)} (slice pairs: ${cpu.map((x) => x.toFixed(2)).join(" ")})`,
  );
  console.log(`after / before, req/s: median ${median(rps).toFixed(3)}`);
} finally {
  for (const build of builds) await build.system.stop();
}
process.exit(0);
