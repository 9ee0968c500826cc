// scripts/identities.mjs makes exactly the identity and NATS Secrets the prod overlay references,
// valid Kubernetes Secrets whose values the services' own config schemas accept, and a matching
// admin key written only to its file.
// Run: node --test scripts/k8s/*.test.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Findings } from "./lib/findings.mjs";
import { kustomize, parseDocuments } from "./lib/render.mjs";
import { createSchemaCheck } from "./lib/schema-check.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(join(REPO_ROOT, "package.json"));
const scratch = mkdtempSync(join(tmpdir(), "identities-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const ledgerConfig = join(REPO_ROOT, "services/ledger/dist/config.js");

test("npm run identities makes the Secrets the prod overlay needs (needs services/ledger built)", async () => {
  const adminKeyFile = join(scratch, "admin.key");
  const run = spawnSync(
    process.execPath,
    [join(REPO_ROOT, "scripts/identities.mjs"), "--namespace", "agentic", "--admin-key", adminKeyFile],
    { encoding: "utf8" },
  );
  assert.equal(run.status, 0, run.stderr);
  const { items } = JSON.parse(run.stdout);

  const findings = new Findings("identities");
  const checkSchema = await createSchemaCheck(REPO_ROOT);
  for (const item of items) checkSchema(item, findings);
  assert.equal(findings.count("error"), 0, findings.format().join("\n"));

  // Every (Secret, key) the prod overlay's services and NATS read from these Secrets exists.
  const { docs } = parseDocuments(kustomize(join(REPO_ROOT, "deploy/k8s/overlays/prod")));
  const made = new Map(items.map((s) => [s.metadata.name, s.stringData]));
  const wanted = docs
    .flatMap((d) => d.spec?.template?.spec?.containers ?? [])
    .flatMap((c) => c.env ?? [])
    .map((e) => e.valueFrom?.secretKeyRef)
    .filter((ref) => ref && /^agentic-(identity|nats)/.test(ref.name));
  assert.ok(wanted.length >= 9);
  for (const ref of wanted) assert.ok(made.get(ref.name)?.[ref.key], `${ref.name}/${ref.key}`);

  // The values are what the services read: the ledger's trust list and each service's private key.
  const { configSchema } = require(ledgerConfig);
  const { parsePrivateKey, serviceIdentity, createTokenVerifier } = require("@agentic/platform");
  const trust = configSchema.parse({
    NATS_URL: "nats://n:4222",
    TRUSTED_SERVICE_KEYS: made.get("agentic-identity-trust").ledger,
  }).TRUSTED_SERVICE_KEYS;
  const verifier = createTokenVerifier(trust);
  const adminKey = readFileSync(adminKeyFile, "utf8").trim();
  assert.equal(statSync(adminKeyFile).mode & 0o777, 0o600);
  assert.doesNotMatch(run.stdout, new RegExp(adminKey.slice(0, 40).replace(/[+/]/g, "\\$&")));
  for (const [name, key] of [
    ...["gateway", "router", "executor"].map((n) => [n, made.get(`agentic-identity-${n}`)["private-key"]]),
    ["admin", adminKey],
  ]) {
    const token = serviceIdentity(name, parsePrivateKey(key)).tokenFor("/agentic.ledger.v1.LedgerService/GetWallet");
    assert.equal(verifier.verify(token, "agentic.ledger.v1.LedgerService"), name);
  }
});
