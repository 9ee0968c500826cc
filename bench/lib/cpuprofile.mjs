// Summarizes a V8 .cpuprofile (node --cpu-prof): self time per function and per package, as a
// share of the busy (non-idle) time. Also a CLI: `node bench/lib/cpuprofile.mjs <file> [top]`.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { ROOT } from "./paths.mjs";

function shortPath(url) {
  let path = url.replace(/^file:\/\//, "");
  const nm = path.lastIndexOf("/node_modules/");
  if (nm >= 0) return path.slice(nm + "/node_modules/".length);
  if (path.startsWith(`${ROOT}/`)) path = path.slice(ROOT.length + 1);
  return path;
}

/** Who owns the code: an npm package, a workspace, node core, or V8 itself. */
function owner(url, functionName) {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node core";
  const path = url.replace(/^file:\/\//, "");
  const nm = path.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const parts = path.slice(nm + "/node_modules/".length).split("/");
    const pkg = parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
    // Workspace packages are symlinked into node_modules and resolve to their real path anyway.
    return pkg;
  }
  if (path.startsWith(`${ROOT}/`)) {
    const rel = path.slice(ROOT.length + 1).split("/");
    // Workspaces end in "/" (gateway/, packages/platform/), npm packages do not ("router" is express's).
    return rel[0] === "services" || rel[0] === "packages" ? `${rel[0]}/${rel[1]}/` : `${rel[0]}/`;
  }
  return path;
}

/**
 * @param {string} file path of a .cpuprofile
 * @param {number} top how many rows per table
 * @param {{ fromUs: number, toUs: number }} [window] only samples in this span of the monotonic
 *   clock (process.hrtime in µs, the clock V8 stamps profiles with on Linux), e.g. the measured
 *   part of a scenario, so start-up and warm-up are left out
 * @returns {{ totalMs: number, busyMs: number, idleMs: number, functions: object[], owners: object[] }}
 */
export function summarizeProfile(file, top = 10, window) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  const { samples = [], timeDeltas = [] } = profile;
  let t = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    t += timeDeltas[i] ?? 0;
    if (window && (t < window.fromUs || t > window.toUs)) continue;
    // timeDeltas[i] is the gap before sample i, so sample i lasts until the next one.
    const us = timeDeltas[i + 1] ?? 0;
    selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + us);
  }
  const fns = new Map();
  const owners = new Map();
  let totalUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const name = functionName || "(anonymous)";
    totalUs += us;
    if (name === "(idle)") {
      idleUs += us;
      continue;
    }
    const key = `${name}\u0000${url}\u0000${lineNumber}`;
    const f = fns.get(key) ?? { function: name, location: url ? `${shortPath(url)}:${lineNumber + 1}` : "", us: 0 };
    f.us += us;
    fns.set(key, f);
    const o = owner(url, name);
    owners.set(o, (owners.get(o) ?? 0) + us);
  }
  // The same, with node core and native code charged to the nearest package or workspace that
  // called it (writev under pino is logging; under express it is the response), V8 entries kept.
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const chargedTo = new Map();
  const chargeOf = (id) => {
    if (chargedTo.has(id)) return chargedTo.get(id);
    const { functionName, url } = byId.get(id).callFrame;
    const o = owner(url, functionName || "(anonymous)");
    const generic = o === "node core" || o === "(native)";
    let result = generic && parent.has(id) ? chargeOf(parent.get(id)) : o;
    if (result === "(root)") result = "node core, no package on the stack (sockets, HTTP parser, timers)";
    chargedTo.set(id, result);
    return result;
  };
  const charged = new Map();
  for (const [id, us] of selfUs) {
    if (byId.get(id).callFrame.functionName === "(idle)") continue;
    const o = chargeOf(id);
    charged.set(o, (charged.get(o) ?? 0) + us);
  }

  const busyUs = totalUs - idleUs || 1;
  const pct = (us) => Math.round((us / busyUs) * 1000) / 10;
  const otel = (m) => [...m].filter(([o]) => o.startsWith("@opentelemetry/")).reduce((sum, [, us]) => sum + us, 0);
  return {
    totalMs: Math.round(totalUs / 1000),
    busyMs: Math.round(busyUs / 1000),
    idleMs: Math.round(idleUs / 1000),
    functions: [...fns.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ function: f.function, location: f.location, selfMs: Math.round(f.us / 1000), pctOfBusy: pct(f.us) })),
    owners: [...owners]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ owner: name, selfMs: Math.round(us / 1000), pctOfBusy: pct(us) })),
    openTelemetryPct: pct(otel(owners)),
    openTelemetryChargedPct: pct(otel(charged)),
    ownersCharged: [...charged]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ owner: name, selfMs: Math.round(us / 1000), pctOfBusy: pct(us) })),
  };
}

/** Prints a summary as two small tables. */
export function printProfile(summary, file, print = console.log) {
  print(`CPU profile ${file}`);
  print(`  ${summary.totalMs} ms sampled, ${summary.busyMs} ms busy, ${summary.idleMs} ms idle; shares are of busy time`);
  print("  top self time by function:");
  for (const f of summary.functions)
    print(`    ${String(f.pctOfBusy).padStart(5)}%  ${String(f.selfMs).padStart(6)} ms  ${f.function}  ${f.location}`);
  print("  self time by owner (npm package; workspace/ with a slash; node core; (V8 entries)):");
  for (const o of summary.owners) print(`    ${String(o.pctOfBusy).padStart(5)}%  ${String(o.selfMs).padStart(6)} ms  ${o.owner}`);
  print(`    (all @opentelemetry/* packages together: ${summary.openTelemetryPct}%)`);
  print("  self time by owner, node core and native code charged to the package that called them:");
  for (const o of summary.ownersCharged) print(`    ${String(o.pctOfBusy).padStart(5)}%  ${String(o.selfMs).padStart(6)} ms  ${o.owner}`);
  print(`    (all @opentelemetry/* packages together: ${summary.openTelemetryChargedPct}%)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error("usage: node bench/lib/cpuprofile.mjs <file.cpuprofile> [top]");
    process.exit(2);
  }
  printProfile(summarizeProfile(file, Number(top) > 0 ? Number(top) : 10), file);
}
