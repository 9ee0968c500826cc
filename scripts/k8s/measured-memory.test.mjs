// Each service's memory limit holds its measured peak at catalog scale: on every overlay, the server
// container's limits.memory of the catalog, router, gateway and executor is at least HEADROOM times the
// highest peak RSS `npm run bench -- --catalog <times>` measured for it (bench/measured/catalog-x*.json:
// in the system under load, the router with its intent index built; the catalog also alone at start).
// A limit below it would OOM-kill that service on a catalog of that size. Run: node --test scripts/k8s/*.test.mjs
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { kustomize, parseDocuments } from "./lib/render.mjs";
import { containersOf, podSpecOf } from "./lib/workloads.mjs";
import { DEPLOYED_SERVICES, productionNodeFlags } from "../../bench/lib/production-node-flags.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const OVERLAYS = ["deploy/k8s/overlays/dev", "deploy/k8s/overlays/prod"];
const MEASURED_DIR = join(REPO_ROOT, "bench/measured");
/** Room above the measured peak: another machine, another Node patch release, a catalog a little larger. */
const HEADROOM = 1.2;

const UNITS = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, K: 1e3, M: 1e6, G: 1e9, "": 1 };

/** A Kubernetes memory quantity in bytes ("256Mi", "1G", "500000000"). */
export function bytesOf(quantity) {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G|)$/.exec(String(quantity));
  if (!m) throw new Error(`unreadable memory quantity "${quantity}"`);
  return Number(m[1]) * UNITS[m[2]];
}

/** Services whose memory the catalog's size moves, as the measurements name them. */
const MEASURED_SERVICES = ["catalog", "router", "gateway", "executor"];

/** The highest peak RSS (bytes) of `service` among the committed measurements, with the file it is from. */
function measuredPeak(service) {
  const files = readdirSync(MEASURED_DIR).filter((f) => /^catalog-x\d+\.json$/.test(f));
  assert.ok(files.length > 0, "no bench/measured/catalog-x*.json: run npm run bench -- --catalog 100");
  let worst = { bytes: 0, file: "" };
  for (const file of files) {
    const { scaled } = JSON.parse(readFileSync(join(MEASURED_DIR, file), "utf8"));
    const inSystem = scaled.memory[service]?.peakMB ?? 0;
    const mb = service === "catalog" ? Math.max(scaled.start.peakMB, inSystem) : inSystem;
    if (mb * 2 ** 20 > worst.bytes) worst = { bytes: mb * 2 ** 20, file };
  }
  assert.ok(worst.bytes > 0, `no measured peak of the ${service} in bench/measured/`);
  return worst;
}

/** A problem when `limit` does not hold `peakBytes` with the headroom; undefined when it does. */
export function limitProblem(limit, peakBytes) {
  if (limit === undefined) return "the container has no memory limit";
  const needed = peakBytes * HEADROOM;
  if (bytesOf(limit) >= needed) return undefined;
  return `limits.memory ${limit} is below the measured peak ${(peakBytes / 2 ** 20).toFixed(0)} MiB x ${HEADROOM} = ${(needed / 2 ** 20).toFixed(0)} MiB`;
}

describe("each service's memory limit holds its measured peak", () => {
  for (const service of MEASURED_SERVICES) {
    const peak = measuredPeak(service);
    for (const overlay of OVERLAYS) {
      test(`${overlay}: the ${service}'s limits.memory >= peak (${(peak.bytes / 2 ** 20).toFixed(0)} MiB, ${peak.file}) x ${HEADROOM}`, () => {
        const { docs, errors } = parseDocuments(kustomize(join(REPO_ROOT, overlay)));
        assert.deepEqual(errors, []);
        const deployment = docs.find((d) => d.kind === "Deployment" && d.metadata?.name === service);
        assert.ok(deployment, `no ${service} Deployment`);
        const server = containersOf(podSpecOf(deployment)).find((c) => c.container.name === "server")?.container;
        assert.equal(limitProblem(server?.resources?.limits?.memory, peak.bytes), undefined);
      });
    }
  }

  test("a limit under the peak with its headroom is refused", () => {
    assert.match(limitProblem("256Mi", 240 * 2 ** 20), /below the measured peak 240 MiB x 1.2 = 288 MiB/);
    assert.equal(limitProblem("288Mi", 240 * 2 ** 20), undefined);
    assert.match(limitProblem(undefined, 1), /no memory limit/);
    assert.equal(bytesOf("1Gi"), 2 ** 30);
  });
});

// The peaks above and the bench's RSS row are measured with each service's production node flags: the
// bench reads them from the same command every overlay runs (bench/lib/production-node-flags.mjs).
describe("the bench runs each service with the node flags of its rendered command", () => {
  const { docs } = parseDocuments(kustomize(join(REPO_ROOT, "deploy/k8s/overlays/prod")));
  for (const service of DEPLOYED_SERVICES) {
    test(`the ${service}`, () => {
      const deployment = docs.find((d) => d.kind === "Deployment" && d.metadata.name === service);
      const command = containersOf(podSpecOf(deployment)).find((c) => c.container.name === "server").container.command;
      const preload = command.indexOf("--require");
      assert.ok(preload > 0, `${service}: the telemetry preload follows its node flags`);
      assert.deepEqual(["node", ...productionNodeFlags(service), ...command.slice(preload)], command);
      if (MEASURED_SERVICES.includes(service)) assert.ok(productionNodeFlags(service).some((f) => f.startsWith("--max-semi-space-size=")));
    });
  }
});
