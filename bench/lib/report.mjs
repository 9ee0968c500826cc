// Turns scenario results into what a reader needs: the table, the ratios against the bare
// servers, the targets (PASS/MISS, never failing the run) and deltas against an earlier run.
import { DEPLOYED_SERVICES } from "./production-node-flags.mjs";

/** Short process names for the CPU and RSS columns. */
export const SHORT = {
  gateway: "gw",
  catalog: "cat",
  router: "rtr",
  ledger: "ldg",
  executor: "exe",
  sandbox: "sbx",
  nats: "nats",
  "bare-http": "http",
  "bare-express": "expr",
  loadgen: "load",
};

export const TARGETS = {
  domainsVsBare: 0.5,
  // Twice recommend's req/s before issue 33's changes on this machine kind (758 req/s at 32 connections).
  recommendRps: 2 * 758,
  unloadedRecommendP99Ms: 5,
  // Our execute of models.chat.complete against Portkey's gateway in front of the same vendor, same run.
  chatVsPortkey: 0.5,
  // What our execute adds to the direct vendor call, one connection.
  idleChatOverP50Ms: 2,
  idleChatOverP99Ms: 8,
  rssMb: 150,
  soakGrowthMb: 10,
  soakGrowthPct: 10,
};

const fmt = (x, digits = 2) => (x === null || x === undefined || Number.isNaN(x) ? "-" : x.toFixed(digits));
const fmtInt = (x) => (x === null || x === undefined ? "-" : Math.round(x).toLocaleString("en-US"));
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

function byId(results, id) {
  const r = results.find((s) => s.id === id);
  return r && r.status === "ok" ? r : undefined;
}

export function formatTable(results) {
  const lines = [];
  const head = `${pad("scenario", 34)}${lpad("conns", 6)}${lpad("req/s", 9)}${lpad("p50", 8)}${lpad("p99", 8)}${lpad("p99.9", 8)}  ${pad("err/non2xx", 11)}${pad("CPU % of one core", 44)}peak RSS MB`;
  lines.push(head, "-".repeat(head.length + 12));
  for (const r of results) {
    if (r.status !== "ok") {
      lines.push(`${pad(r.label, 34)}${lpad(r.conns ?? "", 6)}  skipped: ${r.skipReason}`);
      continue;
    }
    const cpu =
      [...r.involved, "loadgen"]
        .filter((p) => r.processes[p]?.cpuPct != null)
        .map((p) => `${SHORT[p] ?? p} ${Math.round(r.processes[p].cpuPct)}`)
        .join(" ") + (r.machineCpu ? ` other ${Math.round(r.machineCpu.othersPct)}` : "");
    const rss = r.involved
      .filter((p) => r.processes[p])
      .map((p) => `${SHORT[p] ?? p} ${Math.round(r.processes[p].rssPeakMb)}`)
      .join(" ");
    const errs = `${r.errors}/${r.non2xx}`;
    lines.push(
      `${pad(r.label, 34)}${lpad(r.conns, 6)}${lpad(fmtInt(r.rps), 9)}${lpad(fmt(r.latency.p50), 8)}${lpad(fmt(r.latency.p99), 8)}${lpad(fmt(r.latency.p999), 8)}  ${pad(errs, 11)}${pad(cpu, 44)} ${rss}`,
    );
  }
  return lines.join("\n");
}

/**
 * CPU time each process spent per answered request, in µs: CPU % over the measured part times its
 * length, over the requests. Unlike req/s, it barely moves when other work on the machine takes
 * cores away, so it is the figure to compare code changes by on a busy machine.
 */
export function cpuPerRequestUs(r) {
  if (r.status !== "ok" || !r.requests) return {};
  return Object.fromEntries(
    [...r.involved, "loadgen"]
      .filter((p) => r.processes[p]?.cpuPct != null)
      .map((p) => [p, Math.round(((r.processes[p].cpuPct / 100) * r.durationS * 1e6) / r.requests)]),
  );
}

export function formatCpuPerRequest(results) {
  return results
    .filter((r) => r.status === "ok")
    .map((r) => {
      const us = cpuPerRequestUs(r);
      const parts = Object.entries(us).map(([p, v]) => `${SHORT[p] ?? p} ${v}`);
      return `${pad(r.label, 34)}${parts.join("  ")}`;
    })
    .join("\n");
}

/** Latency `r` adds over the direct vendor call `vendor` (both one connection). */
function overVendor(r, vendor) {
  return r && vendor
    ? { p50Ms: r.latency.p50 - vendor.latency.p50, p99Ms: r.latency.p99 - vendor.latency.p99, vsConns: `${r.conns} vs ${vendor.conns}` }
    : null;
}

/** Throughput ratios and latency overheads against the bare servers. */
export function computeRatios(results) {
  const bare = byId(results, "bare-http");
  const express = byId(results, "bare-express");
  const domains = byId(results, "gw-domains");
  const grpc = byId(results, "grpc-catalog");
  const ratio = (a, b) => (a && b && b.rps > 0 ? a.rps / b.rps : null);
  const overhead = (r) =>
    r && bare
      ? { p50Ms: r.latency.p50 - bare.latency.p50, p99Ms: r.latency.p99 - bare.latency.p99, vsConns: `${r.conns} vs ${bare.conns}` }
      : null;
  return {
    domainsVsExpress: ratio(domains, express),
    domainsVsBare: ratio(domains, bare),
    expressVsBare: ratio(express, bare),
    domainsOverMs: overhead(domains),
    contractOverMs: overhead(byId(results, "gw-contract")),
    recommendOverMs: overhead(byId(results, "gw-recommend")),
    executeOverMs: overhead(byId(results, "gw-execute")),
    // The Portkey comparison: the same chat completion directly, through Portkey, and as our execute.
    chatVsPortkey: ratio(byId(results, "gw-chat"), byId(results, "portkey-chat")),
    portkeyVsVendor: ratio(byId(results, "portkey-chat"), byId(results, "vendor-chat")),
    chatVsVendor: ratio(byId(results, "gw-chat"), byId(results, "vendor-chat")),
    idleChatOverVendorMs: overVendor(byId(results, "gw-chat-1"), byId(results, "vendor-chat-1")),
    idlePortkeyOverVendorMs: overVendor(byId(results, "portkey-chat-1"), byId(results, "vendor-chat-1")),
    // What the HTTP edge adds on top of the catalog hop: gateway GET /domains minus direct gRPC.
    edgeOverGrpcP50Ms: domains && grpc ? domains.latency.p50 - grpc.latency.p50 : null,
  };
}

export function formatRatios(ratios) {
  const x = (v) => (v === null ? "n/a (scenario not run)" : `${v.toFixed(2)}x`);
  const o = (v) =>
    v === null ? "n/a (scenario or bare-http not run)" : `p50 +${fmt(v.p50Ms)} ms, p99 +${fmt(v.p99Ms)} ms (conns ${v.vsConns})`;
  return [
    `gateway GET /domains vs bare express 5:  ${x(ratios.domainsVsExpress)} the req/s`,
    `gateway GET /domains vs bare node:http:  ${x(ratios.domainsVsBare)} the req/s  (bare express 5 vs bare node:http: ${x(ratios.expressVsBare)})`,
    `overhead over bare node:http, GET /domains:  ${o(ratios.domainsOverMs)}`,
    `overhead over bare node:http, GET contract:  ${o(ratios.contractOverMs)}`,
    `overhead over bare node:http, POST recommend: ${o(ratios.recommendOverMs)}`,
    `overhead over bare node:http, POST execute:   ${o(ratios.executeOverMs)}`,
    `execute models.chat.complete vs Portkey's gateway, same vendor: ${x(ratios.chatVsPortkey)} the req/s  (Portkey vs the vendor directly: ${x(ratios.portkeyVsVendor)}; our execute vs the vendor directly: ${x(ratios.chatVsVendor)})`,
    `idle overhead over the direct vendor call, our execute: ${o(ratios.idleChatOverVendorMs)}`,
    `idle overhead over the direct vendor call, Portkey:     ${o(ratios.idlePortkeyOverVendorMs)}`,
    `HTTP edge over the direct gRPC ListDomains, p50: ${ratios.edgeOverGrpcP50Ms === null ? "n/a" : `+${fmt(ratios.edgeOverGrpcP50Ms)} ms`}`,
  ].join("\n");
}

/** The targets, each PASS, MISS or n/a with the measured value. */
export function computeTargets(results, ratios, soak) {
  const targets = [];
  const add = (name, pass, value) => targets.push({ name, result: pass === null ? "n/a" : pass ? "PASS" : "MISS", value });

  const errorsOf = (r) => r.errors + r.non2xx;
  const domains = byId(results, "gw-domains");
  const domainsName = `GET /domains >= ${TARGETS.domainsVsBare}x bare node:http, 0 errors`;
  if (domains && ratios.domainsVsBare !== null) {
    add(
      domainsName,
      ratios.domainsVsBare >= TARGETS.domainsVsBare && errorsOf(domains) === 0,
      `${ratios.domainsVsBare.toFixed(2)}x, ${errorsOf(domains)} errors`,
    );
  } else add(domainsName, null, "gw-domains or bare-http not run");

  const throughput = (id, name, min) => {
    const r = byId(results, id);
    add(
      `${name} >= ${fmtInt(min)} req/s, 0 errors`,
      r ? r.rps >= min && errorsOf(r) === 0 : null,
      r ? `${fmtInt(r.rps)} req/s at ${r.conns} conns, ${errorsOf(r)} errors` : skipped(results, id),
    );
  };
  throughput("gw-recommend", "recommend at 32 conns", TARGETS.recommendRps);

  const unloaded = (id, name, maxMs) => {
    const r = byId(results, id);
    add(
      `${name} p99 <= ${maxMs} ms (1 conn)`,
      r ? r.latency.p99 <= maxMs && errorsOf(r) === 0 : null,
      r ? `p50 ${fmt(r.latency.p50)} ms, p99 ${fmt(r.latency.p99)} ms, ${errorsOf(r)} errors` : skipped(results, id),
    );
  };
  unloaded("gw-recommend-1", "unloaded recommend", TARGETS.unloadedRecommendP99Ms);

  const chat = byId(results, "gw-chat");
  add(
    `execute chat >= ${TARGETS.chatVsPortkey}x Portkey's req/s, 0 errors`,
    ratios.chatVsPortkey === null ? null : ratios.chatVsPortkey >= TARGETS.chatVsPortkey && errorsOf(chat) === 0,
    ratios.chatVsPortkey === null
      ? "gw-chat or portkey-chat not run"
      : `${ratios.chatVsPortkey.toFixed(2)}x (${fmtInt(chat.rps)} vs ${fmtInt(byId(results, "portkey-chat").rps)} req/s), ${errorsOf(chat)} errors`,
  );
  const idle = ratios.idleChatOverVendorMs;
  add(
    `idle execute over the vendor p50 <= ${TARGETS.idleChatOverP50Ms}, p99 <= ${TARGETS.idleChatOverP99Ms} ms`,
    idle === null ? null : idle.p50Ms <= TARGETS.idleChatOverP50Ms && idle.p99Ms <= TARGETS.idleChatOverP99Ms,
    idle === null ? "gw-chat-1 or vendor-chat-1 not run" : `p50 +${fmt(idle.p50Ms)} ms, p99 +${fmt(idle.p99Ms)} ms`,
  );

  const peaks = {};
  for (const r of results) {
    for (const [name, p] of Object.entries(r.processes ?? {}))
      if (DEPLOYED_SERVICES.includes(name)) peaks[name] = Math.max(peaks[name] ?? 0, p.rssPeakMb);
  }
  const names = Object.keys(peaks);
  add(
    `RSS of each service <= ${TARGETS.rssMb} MB under load`,
    names.length ? names.every((n) => peaks[n] <= TARGETS.rssMb) : null,
    names.length ? names.map((n) => `${n} ${Math.round(peaks[n])}`).join(", ") : "no samples",
  );

  if (soak?.status === "ok") {
    // Judged on the services under load; idle ones only shrink as their start-up garbage is collected.
    const growth = Object.entries(soak.growth).filter(([n]) => DEPLOYED_SERVICES.includes(n) && soak.involved.includes(n));
    const ok = growth.every(([, g]) => g.growthMb <= TARGETS.soakGrowthMb || g.growthPct <= TARGETS.soakGrowthPct);
    add(
      `no RSS growth over a ${Math.round(soak.durationS)} s soak (<= ${TARGETS.soakGrowthMb} MB or ${TARGETS.soakGrowthPct}%)`,
      ok,
      growth.map(([n, g]) => `${n} ${g.startMb}->${g.endMb} MB (${g.growthMb >= 0 ? "+" : ""}${g.growthMb})`).join(", "),
    );
  } else add("no RSS growth over a 60 s soak", null, "run with --soak");
  return targets;
}

function skipped(results, id) {
  const r = results.find((s) => s.id === id);
  return r ? `skipped: ${r.skipReason}` : "not run";
}

export function formatTargets(targets) {
  return targets.map((t) => `${pad(t.result, 5)} ${pad(t.name, 52)} ${t.value}`).join("\n");
}

/** Deltas of this run against an earlier JSON result. */
export function formatCompare(prev, cur) {
  const lines = [];
  const pm = prev.machine ?? {};
  const cm = cur.machine;
  lines.push(
    `compared with ${prev.machine?.date ?? "?"} (commit ${pm.commit ?? "?"}${pm.treeDirty ? ", dirty" : ""}) -> now (commit ${cm.commit ?? "?"}${cm.treeDirty ? ", dirty" : ""})`,
  );
  if (pm.cpuModel !== cm.cpuModel || pm.cores !== cm.cores || pm.node !== cm.node) {
    lines.push(
      `  warning: different machine or Node (${pm.cores} x ${pm.cpuModel}, ${pm.node} vs ${cm.cores} x ${cm.cpuModel}, ${cm.node})`,
    );
  }
  const envOf = (doc) => JSON.stringify(doc.options?.serviceEnv ?? {});
  if (envOf(prev) !== envOf(cur)) lines.push(`  note: service env differs (${envOf(prev)} vs ${envOf(cur)})`);
  if (prev.options?.durationS !== cur.options.durationS)
    lines.push(`  warning: different durations (${prev.options?.durationS} s vs ${cur.options.durationS} s)`);
  const head = `${pad("scenario", 34)}${lpad("req/s", 26)}${lpad("p50 ms", 24)}${lpad("p99 ms", 26)}${lpad("peak RSS MB", 14)}${lpad("other CPU %", 14)}`;
  lines.push(head);
  // "other CPU" is what the rest of the machine used during each run: a big change there explains more than the code does.
  for (const r of cur.scenarios) {
    const p = (prev.scenarios ?? []).find((s) => s.id === r.id);
    if (!p || p.status !== "ok" || r.status !== "ok") {
      lines.push(`${pad(r.label, 34)}  ${!p ? "not in the earlier run" : p.status !== "ok" ? "skipped earlier" : "skipped now"}`);
      continue;
    }
    const other = (x) => (x.machineCpu ? Math.round(x.machineCpu.othersPct) : "?");
    const pct = p.rps > 0 ? ((r.rps - p.rps) / p.rps) * 100 : 0;
    const d = (a, b) => `${fmt(a)}->${fmt(b)} (${b - a >= 0 ? "+" : ""}${fmt(b - a)})`;
    const rssNow = Math.max(0, ...r.involved.map((n) => r.processes[n]?.rssPeakMb ?? 0));
    const rssPrev = Math.max(0, ...(p.involved ?? []).map((n) => p.processes?.[n]?.rssPeakMb ?? 0));
    if (r.conns !== p.conns) lines.push(`  warning: ${r.id} ran at ${r.conns} conns now, ${p.conns} before`);
    lines.push(
      `${pad(r.label, 34)}${lpad(`${fmtInt(p.rps)}->${fmtInt(r.rps)} (${pct >= 0 ? "+" : ""}${pct.toFixed(1)}%)`, 26)}${lpad(d(p.latency.p50, r.latency.p50), 24)}${lpad(d(p.latency.p99, r.latency.p99), 26)}${lpad(`${Math.round(rssPrev)}->${Math.round(rssNow)}`, 14)}${lpad(`${other(p)}->${other(r)}`, 14)}`,
    );
  }
  return lines.join("\n");
}
