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
};
