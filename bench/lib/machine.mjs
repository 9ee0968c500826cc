// What the numbers were measured on: cores, CPU model, memory, load, Node version, date and the
// commit of the tree, so runs can be compared honestly.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { ROOT } from "./paths.mjs";

function cpuModel() {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    return m ? m[1].trim() : (os.cpus()[0]?.model ?? "unknown");
  } catch {
    return os.cpus()[0]?.model ?? "unknown";
  }
}

function git(args) {
  try {
    return execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

export function describeMachine() {
  const dirty = git(["status", "--porcelain", "--untracked-files=no"]);
  return {
    date: new Date().toISOString(),
    cores: os.availableParallelism?.() ?? os.cpus().length,
    cpuModel: cpuModel(),
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    loadAvg1m: Math.round(os.loadavg()[0] * 100) / 100,
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    commit: git(["rev-parse", "--short", "HEAD"]),
    treeDirty: dirty === undefined ? undefined : dirty.length > 0,
  };
}
