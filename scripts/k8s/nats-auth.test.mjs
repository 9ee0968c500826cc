// The NATS authorization that ships in both overlays is the one the tests and `npm start` run
// (deploy/k8s/components/nats/auth.conf, byte for byte), nats.conf includes it, the NATS server gets
// every password it references, and each service that uses NATS connects as its own user.
// Run: node --test scripts/k8s/*.test.mjs
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { kustomize, parseDocuments } from "./lib/render.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const AUTH_CONF = readFileSync(join(REPO_ROOT, "deploy/k8s/components/nats/auth.conf"), "utf8");
const PASSWORD_VARIABLES = [...AUTH_CONF.matchAll(/password:\s*\$(\w+)/g)].map((m) => m[1]);

for (const overlay of ["dev", "prod"]) {
  describe(`overlays/${overlay}`, () => {
    const { docs } = parseDocuments(kustomize(join(REPO_ROOT, "deploy/k8s/overlays", overlay)));
    const find = (kind, name) => docs.find((d) => d.kind === kind && d.metadata.name.startsWith(name));
    const containerOf = (kind, name) => find(kind, name).spec.template.spec.containers[0];

    test("ship auth.conf unchanged, included by nats.conf", () => {
      const config = find("ConfigMap", "nats-config");
      assert.equal(config.data["auth.conf"], AUTH_CONF);
      assert.match(config.data["nats.conf"], /^include "auth.conf"$/m);
    });

    test("give the NATS server every password auth.conf reads, from Secret agentic-nats-users", () => {
      assert.deepEqual(PASSWORD_VARIABLES.sort(), [
        "NATS_ADMIN_PASSWORD",
        "NATS_EXECUTOR_PASSWORD",
        "NATS_LEDGER_PASSWORD",
        "NATS_ROUTER_PASSWORD",
        "NATS_SYSTEM_PASSWORD",
      ]);
      const env = new Map(containerOf("StatefulSet", "nats").env.map((e) => [e.name, e.valueFrom?.secretKeyRef?.name]));
      for (const name of PASSWORD_VARIABLES) assert.match(env.get(name) ?? "", /^agentic-nats-users/, name);
    });

    test("connect the ledger, router and executor each as its own NATS user", () => {
      for (const service of ["ledger", "router", "executor"]) {
        const configMap = find("ConfigMap", `${service}-config`);
        assert.equal(configMap.data.NATS_USER, service);
        const password = containerOf("Deployment", service).env.find((e) => e.name === "NATS_PASSWORD");
        assert.equal(password?.valueFrom?.secretKeyRef?.key, service);
      }
    });
  });
}
