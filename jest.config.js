// Root test run (`npm test`): every workspace's jest project in one run, one summary at the end.
const { readdirSync, existsSync } = require("node:fs");
const { join } = require("node:path");

const workspaces = ["packages", "services"].flatMap((dir) => readdirSync(join(__dirname, dir)).map((name) => join(dir, name)));
workspaces.push("gateway", "sandbox", "e2e");

/** @type {import('jest').Config} */
module.exports = {
  projects: workspaces.filter((ws) => existsSync(join(__dirname, ws, "jest.config.js"))).map((ws) => `<rootDir>/${ws}`),
  reporters: ["default", "<rootDir>/scripts/jest-summary-reporter.js"],
  // A global option (ignored inside projects): integration tests start real servers.
  testTimeout: 30_000,
  // One worker per core, not jest's default of one fewer: most test files wait on real processes
  // (servers, nats-server, a system started whole), so two files at a time on two cores keep the
  // run well inside CI's 20 minutes instead of running every file one after another.
  maxWorkers: "100%",
};
