// NATS in the production overlay runs as its makers run it (the official NATS Helm chart): startup
// waits on /healthz (streams current, so a rolling restart waits for a restarted node to catch up),
// requests equal to limits at the chart's production minimum with GOMEMLIMIT at about 90 % of the
// memory limit, peers spread over zones and nodes, a config reloader beside the server (one process
// namespace, a ConfigMap whose name does not change, so an auth.conf change reloads instead of
// rolling the StatefulSet) and an exporter beside each server. Then a real nats-server runs the
// shipped auth.conf: a client without credentials is refused, only the system account's user reaches
// the server's own API, and a permission change applies on a reload signal (what the reloader sends)
// without a restart.
// Run: node --test scripts/k8s/*.test.mjs
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { kustomize, parseDocuments } from "./lib/render.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const requireFromPlatform = createRequire(join(REPO_ROOT, "packages/platform/package.json"));
const { connect } = requireFromPlatform("nats");
const { freePort, natsServerBin } = createRequire(join(REPO_ROOT, "package.json"))("@agentic/testing");

const { docs } = parseDocuments(kustomize(join(REPO_ROOT, "deploy/k8s/overlays/prod")));
const statefulSet = docs.find((d) => d.kind === "StatefulSet" && d.metadata.name === "nats");
const pod = statefulSet.spec.template.spec;
const container = (name) => pod.containers.find((c) => c.name === name);
const nats = container("nats");
const natsConfig = docs.find((d) => d.kind === "ConfigMap" && d.metadata.name.startsWith("nats-config"));

/** Bytes of a Kubernetes quantity (8Gi) or a Go GOMEMLIMIT value (7GiB). */
function bytes(text) {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|KiB|MiB|GiB|TiB|B)?$/.exec(String(text));
  assert.ok(m, `unreadable size ${text}`);
  const unit = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 }[(m[2] ?? "").replace(/B$/, "")] ?? 1;
  return Number(m[1]) * unit;
}

describe("NATS in overlays/prod, as the NATS Helm chart runs it", () => {
  test("startup waits on /healthz (streams current); readiness and liveness are the chart's", () => {
    assert.equal(nats.startupProbe.httpGet.path, "/healthz");
    assert.ok(nats.startupProbe.periodSeconds * nats.startupProbe.failureThreshold >= 600, "at least 10 minutes to catch up");
    assert.equal(nats.readinessProbe.httpGet.path, "/healthz?js-server-only=true");
    assert.equal(nats.livenessProbe.httpGet.path, "/healthz?js-enabled-only=true");
  });

  test("requests equal limits, at least the chart's production minimum (2 CPU, 8Gi), and GOMEMLIMIT about 90 % of it", () => {
    assert.deepEqual(nats.resources.requests, nats.resources.limits);
    assert.ok(Number(nats.resources.limits.cpu) >= 2, `cpu ${nats.resources.limits.cpu}`);
    const limit = bytes(nats.resources.limits.memory);
    assert.ok(limit >= 8 * 1024 ** 3, `memory ${nats.resources.limits.memory}`);
    const goMemLimit = nats.env.find((e) => e.name === "GOMEMLIMIT")?.value;
    assert.ok(goMemLimit, "GOMEMLIMIT is set");
    const share = bytes(goMemLimit) / limit;
    assert.ok(share >= 0.8 && share <= 0.95, `GOMEMLIMIT is ${Math.round(share * 100)} % of the memory limit`);
  });

  test("three peers spread hard over zones and over nodes", () => {
    assert.equal(statefulSet.spec.replicas, 3);
    for (const key of ["topology.kubernetes.io/zone", "kubernetes.io/hostname"]) {
      const spread = pod.topologySpreadConstraints.find((t) => t.topologyKey === key);
      assert.ok(spread, key);
      assert.equal(spread.whenUnsatisfiable, "DoNotSchedule", key);
      assert.equal(spread.maxSkew, 1, key);
      assert.deepEqual(spread.labelSelector.matchLabels, { "app.kubernetes.io/name": "nats" });
    }
  });

  test("a config reloader beside the server: one process namespace, the pid file and every config file", () => {
    const reloader = container("reloader");
    assert.ok(reloader, "container reloader");
    assert.equal(pod.shareProcessNamespace, true);
    assert.match(reloader.image, /^natsio\/nats-server-config-reloader:\d/);
    const args = reloader.args.join(" ");
    assert.match(args, /-pid \/var\/run\/nats\/nats\.pid/);
    assert.match(
      readFileSync(join(REPO_ROOT, "deploy/k8s/components/nats/nats.conf"), "utf8"),
      /^pid_file: "\/var\/run\/nats\/nats\.pid"$/m,
    );
    for (const file of ["nats.conf", "auth.conf"]) assert.match(args, new RegExp(`-config /etc/nats/${file.replace(".", "\\.")}`));
    const mounts = (c) => new Map(c.volumeMounts.map((m) => [m.name, m.mountPath]));
    for (const [name, path] of [
      ["config", "/etc/nats"],
      ["run", "/var/run/nats"],
    ]) {
      assert.equal(mounts(nats).get(name), path);
      assert.equal(mounts(reloader).get(name), path);
    }
    // A hashed name would change with auth.conf and roll every server instead of reloading it.
    assert.equal(natsConfig.metadata.name, "nats-config");
    assert.equal(pod.volumes.find((v) => v.name === "config").configMap.name, "nats-config");
  });

  test("an exporter beside each server, scraped on its metrics port", () => {
    const exporter = container("metrics");
    assert.match(exporter.image, /^natsio\/prometheus-nats-exporter:\d/);
    for (const flag of ["-varz", "-jsz=all", "-healthz"]) assert.ok(exporter.args.includes(flag), flag);
    assert.ok(exporter.args.includes("http://localhost:8222/"));
    assert.equal(exporter.readinessProbe, undefined, "an exporter never takes NATS out of its Service");
    const monitor = docs.find((d) => d.kind === "PodMonitor" && d.metadata.name === "agentic-infrastructure");
    assert.ok(
      monitor.spec.selector.matchExpressions.some((e) => e.key === "app.kubernetes.io/component" && e.values.includes("messaging")),
    );
    assert.equal(statefulSet.spec.template.metadata.labels["app.kubernetes.io/component"], "messaging");
    assert.ok(exporter.ports.some((p) => p.name === "metrics") && monitor.spec.podMetricsEndpoints.some((e) => e.port === "metrics"));
  });

  test("a system account with an operator user, its password from Secret agentic-nats-users; no anonymous way in", () => {
    const auth = natsConfig.data["auth.conf"];
    assert.match(auth, /^system_account: SYS$/m);
    assert.match(auth, /^ {2}SYS: \{\s*users: \[[^\]]*\{ user: system, password: \$NATS_SYSTEM_PASSWORD \}/m);
    const password = nats.env.find((e) => e.name === "NATS_SYSTEM_PASSWORD")?.valueFrom?.secretKeyRef;
    assert.deepEqual(password && { name: password.name.replace(/-[a-z0-9]{10}$/, ""), key: password.key }, {
      name: "agentic-nats-users",
      key: "system",
    });
    // Every user in a named account: $G beside the system account alone would get a made-up no_auth_user
    // on nats-server 2.9 (auth.conf says why), and nothing may name one on purpose.
    assert.doesNotMatch(auth, /^\s*(authorization|no_auth_user)\b/m);
    assert.match(auth, /^ {2}AGENTIC: \{\s*(#[^\n]*\n\s*)*jetstream: enabled/m);
  });
});

describe("the shipped auth.conf on a real nats-server", () => {
  const scratch = mkdtempSync(join(tmpdir(), "nats-production-"));
  const passwords = Object.fromEntries(["executor", "ledger", "router", "admin", "system"].map((u) => [u, `p${u}Pass0123`]));
  let server;
  let port;
  after(async () => {
    if (server && server.exitCode === null) await new Promise((r) => server.once("exit", r).kill("SIGTERM"));
    rmSync(scratch, { recursive: true, force: true });
  });

  /**
   * Whether `user` may publish on `subject`: an unrestricted subscriber (admin) on executions.> sees,
   * in order, the publish and then a marker on executions.outcome; a publish the server refused never arrives.
   */
  async function mayPublish(user, subject) {
    const watcher = await connect({ servers: `nats://127.0.0.1:${port}`, user: "admin", pass: passwords.admin });
    const sub = watcher.subscribe("executions.>", { max: 2 });
    await watcher.flush();
    const nc = await connect({ servers: `nats://127.0.0.1:${port}`, user, pass: passwords[user] });
    nc.publish(subject, "probe");
    nc.publish("executions.outcome", "marker");
    await nc.flush();
    let first;
    for await (const m of sub) {
      first = m;
      break;
    }
    await nc.close();
    await watcher.close();
    return first.subject === subject && new TextDecoder().decode(first.data) === "probe";
  }

  test("a client without credentials is refused; only `system` reaches the server API; a permission change reloads without a restart", async () => {
    port = await freePort();
    writeFileSync(join(scratch, "auth.conf"), natsConfig.data["auth.conf"]);
    writeFileSync(
      join(scratch, "nats.conf"),
      `port: ${port}\npid_file: "${join(scratch, "nats.pid")}"\ninclude "auth.conf"\njetstream { store_dir: "${join(scratch, "js")}" }\n`,
    );
    const env = { ...process.env };
    for (const [user, pass] of Object.entries(passwords)) env[`NATS_${user.toUpperCase()}_PASSWORD`] = pass;
    server = spawn(natsServerBin(), ["-c", join(scratch, "nats.conf")], { env, stdio: ["ignore", "ignore", "pipe"] });
    let log = "";
    server.stderr.on("data", (d) => (log += d));
    await new Promise((resolveReady, reject) => {
      const timer = setTimeout(() => reject(new Error(`nats-server not ready:\n${log}`)), 10_000);
      server.stderr.on("data", () => {
        if (/Server is ready/.test(log)) {
          clearTimeout(timer);
          resolveReady();
        }
      });
      server.once("exit", () => reject(new Error(`nats-server exited:\n${log}`)));
    });

    await assert.rejects(connect({ servers: `nats://127.0.0.1:${port}`, reconnect: false }), /AUTHORIZATION_VIOLATION|Authorization/i);

    // The system account answers the server's own API to `system`, and to nobody in AGENTIC (admin included).
    const system = await connect({ servers: `nats://127.0.0.1:${port}`, user: "system", pass: passwords.system });
    const ping = JSON.parse(new TextDecoder().decode((await system.request("$SYS.REQ.SERVER.PING", "", { timeout: 5_000 })).data));
    assert.ok(ping.server?.id, "a server answered $SYS.REQ.SERVER.PING");
    await system.close();
    const admin = await connect({ servers: `nats://127.0.0.1:${port}`, user: "admin", pass: passwords.admin });
    await assert.rejects(admin.request("$SYS.REQ.SERVER.PING", "", { timeout: 2_000 }), /503|no responders/i);
    await admin.close();

    // The executor publishes settlements; take that away in auth.conf and signal a reload, as the reloader does.
    assert.equal(await mayPublish("executor", "executions.settled"), true);
    const pid = server.pid;
    writeFileSync(
      join(scratch, "auth.conf"),
      natsConfig.data["auth.conf"].replace('"executions.settled", "executions.outcome",', '"executions.outcome",'),
    );
    const reloaded = new Promise((r) => server.stderr.on("data", () => /Reloaded server configuration/.test(log) && r()));
    server.kill("SIGHUP");
    await reloaded;
    assert.equal(await mayPublish("executor", "executions.settled"), false);
    assert.equal(server.pid, pid);
    assert.equal(server.exitCode, null, "the same server kept running");
  });
});
