#!/usr/bin/env node
// Makes the Kubernetes Secrets of a deployment's service identities and NATS users, fresh each run:
//   npm run identities -- --namespace agentic --admin-key ./admin-identity.key | kubectl apply -f -
// stdout: a YAML List of the Secrets agentic-identity-{gateway,router,executor} (each service's
// Ed25519 private key), agentic-identity-trust (the public keys each gRPC service trusts) and
// agentic-nats-users (one NATS password per user of components/nats/auth.conf, `system` the system
// account's, and `route` for the cluster routes of components/nats-cluster). The admin identity's
// private key, which no pod gets, goes to the --admin-key file only (mode 0600): it is what
// `ADMIN_IDENTITY_KEY=$(cat FILE) npm run keys` signs with. Pipe stdout to kubectl, or into
// Sealed Secrets / External Secrets under the same names and keys.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { parseArgs } from "node:util";

const require = createRequire(import.meta.url);
const { formatTrustedKeys, generateIdentityKeys } = require("@agentic/platform");

const { values } = parseArgs({ options: { namespace: { type: "string" }, "admin-key": { type: "string" } } });
if (!values.namespace || !values["admin-key"]) {
  process.stderr.write("Usage: npm run identities -- --namespace <ns> --admin-key <file for the admin private key> | kubectl apply -f -\n");
  process.exit(2);
}

const keys = Object.fromEntries(["gateway", "router", "executor", "admin"].map((name) => [name, generateIdentityKeys()]));
/** TRUSTED_SERVICE_KEYS listing `names`: each service trusts only the identities that call it. */
const trust = (...names) => formatTrustedKeys(Object.fromEntries(names.map((name) => [name, keys[name].publicKey])));
const secret = (name, data) => ({
  apiVersion: "v1",
  kind: "Secret",
  metadata: { name, namespace: values.namespace, labels: { "app.kubernetes.io/part-of": "agentic" } },
  type: "Opaque",
  stringData: data,
});
const items = [
  ...["gateway", "router", "executor"].map((name) => secret(`agentic-identity-${name}`, { "private-key": keys[name].privateKey })),
  secret("agentic-identity-trust", {
    ledger: trust("gateway", "router", "executor", "admin"),
    executor: trust("gateway"),
    router: trust("gateway"),
  }),
  secret(
    "agentic-nats-users",
    // `route`: the NATS cluster's routes (components/nats-cluster), in their URLs too, hence hex.
    Object.fromEntries(
      ["executor", "ledger", "router", "admin", "system", "route"].map((user) => [user, `p${randomBytes(24).toString("hex")}`]),
    ),
  ), // a letter first: nats-server reads $VAR values as config values (a leading digit parses as a number)
];
writeFileSync(values["admin-key"], `${keys.admin.privateKey}\n`, { mode: 0o600, flag: "wx" });
// JSON is YAML: kubectl apply -f - reads it as is.
process.stdout.write(`${JSON.stringify({ apiVersion: "v1", kind: "List", items }, null, 2)}\n`);
