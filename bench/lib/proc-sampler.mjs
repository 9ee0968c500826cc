// Samples RSS (VmRSS in /proc/<pid>/status) and CPU time (utime+stime in /proc/<pid>/stat) of
// named processes every interval, so each scenario can report peak / start / end RSS and how much
// of a core each process used. Linux only; a process that has gone away simply stops reporting.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

function clockTicks() {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
}

const TICKS_PER_SECOND = clockTicks();

function readProc(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const rss = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "(comm)": state is field 3, utime field 14, stime field 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cpuTicks = Number(fields[11]) + Number(fields[12]);
    return { rssKb: rss ? Number(rss[1]) : 0, cpuTicks };
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) process `pid` has used so far, in µs; undefined once it has gone away. */
export function cpuTimeUs(pid) {
  const proc = readProc(pid);
  return proc && (proc.cpuTicks / TICKS_PER_SECOND) * 1e6;
}

/** Machine-wide busy and steal time from /proc/stat, in clock ticks summed over all cores. */
function readMachine() {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0];
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return { busyTicks: user + nice + system + irq + softirq + steal, stealTicks: steal };
  } catch {
    return undefined;
  }
}

export class ProcSampler {
  /** @param {number} intervalMs */
  constructor(intervalMs = 500) {
    this.intervalMs = intervalMs;
    /** @type {Map<string, number>} name → pid */
    this.procs = new Map();
    /** @type {{ t: number, values: Record<string, { rssKb: number, cpuTicks: number }> }[]} */
    this.samples = [];
    this.timer = undefined;
  }

  track(name, pid) {
    if (pid) this.procs.set(name, pid);
  }

  untrack(name) {
    this.procs.delete(name);
  }

  /** Takes one sample now and returns its index (a mark for window()). */
  sample() {
    const values = {};
    for (const [name, pid] of this.procs) {
      const v = readProc(pid);
      if (v) values[name] = v;
    }
    this.samples.push({ t: performance.now(), values, machine: readMachine() });
    return this.samples.length - 1;
  }

  start() {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
  }

  stop() {
    clearInterval(this.timer);
  }

  /**
   * Machine-wide CPU between two marks, as a percentage of one core (all cores busy = cores x
   * 100): everything, and the part stolen by the hypervisor.
   */
  machineWindow(from, to) {
    const a = this.samples[from];
    const b = this.samples[to];
    const seconds = (b.t - a.t) / 1000;
    if (!a.machine || !b.machine || seconds <= 0) return undefined;
    const pct = (ticks) => round1((ticks / TICKS_PER_SECOND / seconds) * 100);
    return { busyPct: pct(b.machine.busyTicks - a.machine.busyTicks), stealPct: pct(b.machine.stealTicks - a.machine.stealTicks) };
  }

  /**
   * Per process between two marks (inclusive): RSS at start, end and peak (MB), CPU used as a
   * percentage of one core, and the RSS series (MB) for growth checks.
   */
  window(from, to) {
    const slice = this.samples.slice(from, to + 1);
    const names = new Set(slice.flatMap((s) => Object.keys(s.values)));
    const out = {};
    for (const name of names) {
      const points = slice.filter((s) => s.values[name]).map((s) => ({ t: s.t, ...s.values[name] }));
      if (!points.length) continue;
      const first = points[0];
      const last = points[points.length - 1];
      const seconds = (last.t - first.t) / 1000;
      out[name] = {
        rssStartMb: mb(first.rssKb),
        rssEndMb: mb(last.rssKb),
        rssPeakMb: mb(Math.max(...points.map((p) => p.rssKb))),
        cpuPct: seconds > 0 ? round1(((last.cpuTicks - first.cpuTicks) / TICKS_PER_SECOND / seconds) * 100) : null,
        series: points.map((p) => ({ s: round1((p.t - first.t) / 1000), mb: mb(p.rssKb) })),
      };
    }
    return out;
  }
}

const mb = (kb) => round1(kb / 1024);
const round1 = (x) => Math.round(x * 10) / 10;
