#!/usr/bin/env node
// Writes the software bill of materials of each service image (CycloneDX, production dependencies:
// what the image ships) to .sbom/<service>.cdx.json, and checks each: a CycloneDX document naming
// every component with its version and package URL. The Dockerfile writes the same document into
// each image (/app/sbom.cdx.json); CI runs this so a release has them beside the images.
//   npm run sbom              # all services
//   npm run sbom -- ledger    # one
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SERVICES = ["gateway", "catalog", "router", "executor", "ledger"];
const OUT_DIR = join(REPO_ROOT, ".sbom");

/** What is wrong with `bom` as a service's SBOM, or an empty list. */
function problemsOf(bom) {
  const problems = [];
  if (bom.bomFormat !== "CycloneDX") problems.push(`bomFormat is ${bom.bomFormat}, not CycloneDX`);
  if (!Array.isArray(bom.components) || bom.components.length === 0) problems.push("no components");
  for (const c of bom.components ?? []) {
    if (!c.version || !c.purl) problems.push(`component ${c.name} has no version or purl`);
  }
  return problems;
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((s) => !SERVICES.includes(s));
if (unknown.length > 0) {
  process.stderr.write(`unknown service ${unknown.join(", ")}; one of ${SERVICES.join(", ")}\n`);
  process.exit(2);
}
mkdirSync(OUT_DIR, { recursive: true });
let failed = false;
for (const service of wanted.length > 0 ? wanted : SERVICES) {
  const text = execFileSync("npm", ["sbom", "--sbom-format", "cyclonedx", "--omit", "dev", "--workspace", `@agentic/${service}`], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const bom = JSON.parse(text);
  const file = join(OUT_DIR, `${service}.cdx.json`);
  writeFileSync(file, text);
  const problems = problemsOf(bom);
  failed ||= problems.length > 0;
  process.stdout.write(
    problems.length === 0
      ? `${service}: ${bom.components.length} components -> ${file}\n`
      : `${service}: ${problems.slice(0, 5).join("; ")}\n`,
  );
}
process.exit(failed ? 1 : 0);
