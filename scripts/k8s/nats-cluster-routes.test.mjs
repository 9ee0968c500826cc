// The NATS cluster of the prod overlay (components/nats-cluster) authorizes its routes: real
// nats-servers run the rendered nats.conf and auth.conf (only ports and paths made local) with the
// environment the StatefulSet gives them. Peers with the route password form a cluster; a server
// that reaches the route port with another password is refused and never joins. A dead peer is
// removed as an operator does it (`nats server raft peer-remove`, the system account's user):
// only that user may, and the remaining peers stop counting it.
// Run: node --test scripts/k8s/*.test.mjs
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { kustomize, parseDocuments } from "./lib/render.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { freePort, natsServerBin } = createRequire(join(REPO_ROOT, "package.json"))("@agentic/testing");
const { connect } = createRequire(join(REPO_ROOT, "packages/platform/package.json"))("nats");
const scratch = mkdtempSync(join(tmpdir(), "nats-routes-"));
const servers = [];
after(async () => {
  for (const child of servers) if (child.exitCode === null) await new Promise((r) => child.once("exit", r).kill("SIGTERM"));
  rmSync(scratch, { recursive: true, force: true });
});

const { docs } = parseDocuments(kustomize(join(REPO_ROOT, "deploy/k8s/overlays/prod")));
const natsConfig = docs.find((d) => d.kind === "ConfigMap" && d.metadata.name.startsWith("nats-config")).data;
const statefulSetEnv = docs.find((d) => d.kind === "StatefulSet" && d.metadata.name === "nats").spec.template.spec.containers[0].env;

/** Resolves once `check()` holds, asking every 100 ms, or rejects after `timeoutMs` naming `what`. */
async function until(what, check, timeoutMs = 20_000) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    if (await check()) return;
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Starts one server of the cluster with the shipped files, its ports and paths local, and the
 * StatefulSet's environment with `routePassword` (the route URLs built from it as the kubelet would).
 */
function startNode(name, ports, clusterPorts, routePassword) {
  const dir = mkdtempSync(join(scratch, `${name}-`));
  writeFileSync(join(dir, "auth.conf"), natsConfig["auth.conf"]);
  const conf = natsConfig["nats.conf"]
    .replace(/^port: 4222$/m, `port: ${ports.client}`)
    .replace(/^http_port: 8222$/m, `http_port: ${ports.monitor}`)
    .replace(/^pid_file: .*$/m, `pid_file: "${join(dir, "nats.pid")}"`)
    .replace(/^(\s*)store_dir: \/data$/m, `$1store_dir: "${join(dir, "data")}"`)
    .replace(/^(\s*)port: 6222$/m, `$1port: ${ports.cluster}`)
    // Debian's nats-server (2.9) predates sync_interval (2.10); it is about fsync, not routes.
    .replace(/^\s*sync_interval: .*$/m, "");
  assert.notEqual(conf, natsConfig["nats.conf"]);
  writeFileSync(join(dir, "nats.conf"), conf);
  const env = { SERVER_NAME: name, NATS_ROUTE_PASSWORD: routePassword };
  for (const e of statefulSetEnv) {
    if (e.valueFrom?.secretKeyRef) env[e.name] ??= `p-${e.valueFrom.secretKeyRef.key}`;
    else if (e.value) {
      // $(NATS_ROUTE_PASSWORD) expanded as the kubelet does; the peer's DNS name becomes its local route port.
      const peer = /nats-(\d)\.nats-headless:6222/.exec(e.value)?.[1];
      env[e.name] = e.value
        .replace("$(NATS_ROUTE_PASSWORD)", routePassword)
        .replace(/nats-\d\.nats-headless:6222/, `127.0.0.1:${clusterPorts[peer]}`);
    }
  }
  const log = join(dir, "server.log");
  const child = spawn(natsServerBin(), ["-c", join(dir, "nats.conf"), "-l", log], { env: { ...process.env, ...env }, stdio: "ignore" });
  servers.push(child);
  const routes = async () => {
    try {
      return (await (await fetch(`http://127.0.0.1:${ports.monitor}/routez`)).json()).num_routes;
    } catch {
      return undefined;
    }
  };
  const text = () => {
    try {
      return readFileSync(log, "utf8");
    } catch {
      return ""; // not written yet
    }
  };
  const jsz = async () => {
    try {
      return await (await fetch(`http://127.0.0.1:${ports.monitor}/jsz`)).json();
    } catch {
      return undefined;
    }
  };
  const stop = () => new Promise((r) => (child.exitCode === null ? child.once("exit", r).kill("SIGTERM") : r()));
  return { name, routes, jsz, stop, log: text, url: `nats://127.0.0.1:${ports.client}` };
}

test("peers with the route password form the cluster; a server with another password is refused", { timeout: 60_000 }, async () => {
  assert.match(natsConfig["nats.conf"], /cluster \{[^}]*authorization \{\s*user: route\s*password: \$NATS_ROUTE_PASSWORD/s);
  const ports = await Promise.all(
    [0, 1, 2].map(async () => ({ client: await freePort(), monitor: await freePort(), cluster: await freePort() })),
  );
  const clusterPorts = ports.map((p) => p.cluster);
  const [a, b] = [startNode("nats-0", ports[0], clusterPorts, "pRouteSecret"), startNode("nats-1", ports[1], clusterPorts, "pRouteSecret")];
  await until("nats-0 and nats-1 routed to each other", async () => (await a.routes()) === 1 && (await b.routes()) === 1);

  const impostor = startNode("nats-2", ports[2], clusterPorts, "pGuessed");
  await until("the impostor's route refused", () => /Authorization Violation/.test(impostor.log()));
  assert.equal(await a.routes(), 1, "nats-0 routes to nats-1 only");
  assert.equal(await b.routes(), 1, "nats-1 routes to nats-0 only");
});

test("the system account's user removes a dead peer (nats server raft peer-remove); no other user can", { timeout: 90_000 }, async () => {
  const ports = await Promise.all(
    [0, 1, 2].map(async () => ({ client: await freePort(), monitor: await freePort(), cluster: await freePort() })),
  );
  const clusterPorts = ports.map((p) => p.cluster);
  const nodes = [0, 1, 2].map((i) => startNode(`nats-${i}`, ports[i], clusterPorts, "pRouteSecret"));
  // The meta group as its leader reports it: only the leader lists the other peers (`replicas`), and
  // which server leads is up to the election, so every given server is asked.
  const metaPeers = async (among) => {
    for (const node of among) {
      const meta = (await node.jsz())?.meta_cluster;
      if (meta?.leader === node.name) return [meta.leader, ...(meta.replicas ?? []).map((r) => r.name)].sort();
    }
    return [];
  };
  await until("a JetStream meta group of three", async () => (await metaPeers(nodes)).length === 3, 60_000);

  // nats-2 dies for good (its node is gone); the other two keep the quorum and still list it.
  await nodes[2].stop();
  const survivors = nodes.slice(0, 2);
  await until("a meta leader among the two left", async () => (await metaPeers(survivors)).length > 0);
  assert.ok((await metaPeers(survivors)).includes("nats-2"), "the dead peer is still counted");
  const live = survivors[0];

  const removeRequest = JSON.stringify({ peer: "nats-2" });
  const remove = async (user) => {
    // What `nats server raft peer-remove nats-2` sends, as `user` (the StatefulSet's passwords: p-<key>).
    const nc = await connect({ servers: live.url, user, pass: `p-${user}`, reconnect: false });
    try {
      const reply = await nc.request("$JS.API.SERVER.REMOVE", removeRequest, { timeout: 5_000 });
      return JSON.parse(new TextDecoder().decode(reply.data));
    } catch (err) {
      return { refused: err.code ?? err.message };
    } finally {
      await nc.close();
    }
  };
  // admin, an operator's user in AGENTIC with every other permission: 2.9 would run the removal for it.
  assert.deepEqual(await remove("admin"), { refused: "PERMISSIONS_VIOLATION" });
  assert.deepEqual(await remove("ledger"), { refused: "PERMISSIONS_VIOLATION" });
  assert.ok((await metaPeers(survivors)).includes("nats-2"));

  const bySystem = await remove("system");
  assert.equal(bySystem.success, true, JSON.stringify(bySystem));
  await until("nats-2 out of the meta group", async () => {
    const peers = await metaPeers(survivors);
    return peers.length === 2 && !peers.includes("nats-2");
  });
  await Promise.all(nodes.slice(0, 2).map((n) => n.stop()));
});
