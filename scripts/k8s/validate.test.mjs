// Tests of scripts/k8s/validate.mjs: the real overlays pass, and broken variants of them (built
// as kustomize overlays on top of the real ones, in a temp dir) fail with the right message.
// Run: node --test scripts/k8s/*.test.mjs
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, "..", "..");
const VALIDATE = join(HERE, "validate.mjs");
const DEV = join(REPO_ROOT, "deploy/k8s/overlays/dev");
const PROD = join(REPO_ROOT, "deploy/k8s/overlays/prod");
const ZOD = createRequire(join(REPO_ROOT, "package.json")).resolve("zod");

const scratch = mkdtempSync(join(tmpdir(), "k8s-validate-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const runFile = promisify(execFile);

/** Runs the validator; resolves to its exit status and output (execFile rejects a non-zero exit with both). */
async function validate(args, env = process.env) {
  try {
    const { stdout, stderr } = await runFile(process.execPath, [VALIDATE, ...args], { env, maxBuffer: 16 * 1024 * 1024 });
    return { status: 0, stdout, stderr };
  } catch (err) {
    if (typeof err.code !== "number") throw err;
    return { status: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/**
 * The cases of a group run side by side, one per core: each renders overlays with kubectl and validates
 * them in a process of its own (2–3 s), and one after another they took most of a minute and a half of CI.
 */
const SIDE_BY_SIDE = { concurrency: availableParallelism() };

let overlayCount = 0;
/**
 * Writes an overlay of `base` with JSON6902 `patches` ([{target, ops}]) and returns its dir; `extra`:
 * more kustomization lines (e.g. a secretGenerator), `files`: files written beside it (name → text).
 */
function brokenOverlay(base, patches, { prodName = false, extra = [], files = {} } = {}) {
  const dir = join(scratch, `${prodName ? "prod" : "case"}-${++overlayCount}`);
  mkdirSync(dir, { recursive: true });
  const lines = [
    "apiVersion: kustomize.config.k8s.io/v1beta1",
    "kind: Kustomization",
    "resources:",
    `  - ${relative(dir, base)}`,
    "patches:",
  ];
  for (const { target, ops } of patches) {
    lines.push(`  - target: ${JSON.stringify(target)}`, `    patch: ${JSON.stringify(JSON.stringify(ops))}`);
  }
  lines.push(...extra);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, "kustomization.yaml"), `${lines.join("\n")}\n`);
  return dir;
}

/** A repo root with a fake compiled config per service: `{ ledger: "z.object({...})" }`. */
function fakeRepo(schemas, { withoutDist = [] } = {}) {
  const root = join(scratch, `repo-${++overlayCount}`);
  for (const [service, source] of Object.entries(schemas)) {
    const dir = join(root, service === "gateway" ? "gateway" : `services/${service}`);
    mkdirSync(join(dir, "dist"), { recursive: true });
    writeFileSync(join(dir, "package.json"), "{}\n");
    if (!withoutDist.includes(service)) {
      writeFileSync(join(dir, "dist", "config.js"), `const { z } = require(${JSON.stringify(ZOD)});\nexports.configSchema = ${source};\n`);
    }
  }
  return root;
}

const LEDGER_DEPLOYMENT = { kind: "Deployment", name: "ledger" };
const CONTAINER = "/spec/template/spec/containers/0";

describe("the real overlays", SIDE_BY_SIDE, () => {
  test("dev and prod pass", async () => {
    const run = await validate([]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /k8s validate: OK/);
    assert.match(run.stdout, /deploy\/k8s\/overlays\/dev: \d+ objects/);
    assert.match(run.stdout, /deploy\/k8s\/overlays\/prod: \d+ objects/);
  });

  test("prod lists the Secrets that must be created before deploying", async () => {
    const run = await validate([PROD]);
    assert.equal(run.status, 0, run.stdout);
    for (const secret of ["agentic-mongodb", "agentic-api-keys", "agentic-provider-credentials"]) {
      assert.match(run.stdout, new RegExp(`NOTE  Secret/${secret}: not in the manifests`));
    }
  });
});

describe("broken manifests fail", SIDE_BY_SIDE, () => {
  test("a container without limits", async () => {
    const dir = brokenOverlay(DEV, [{ target: LEDGER_DEPLOYMENT, ops: [{ op: "remove", path: `${CONTAINER}/resources/limits` }] }]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /ERROR Deployment\/ledger container server: resources\.limits\.cpu missing/);
    assert.match(run.stdout, /ERROR Deployment\/ledger container server: resources\.limits\.memory missing/);
    assert.match(run.stdout, /FAILED/);
  });

  test("a misspelled field the schema alone would accept", async () => {
    const dir = brokenOverlay(DEV, [
      { target: LEDGER_DEPLOYMENT, ops: [{ op: "add", path: `${CONTAINER}/readinesProbe`, value: { grpc: { port: 50051 } } }] },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /ERROR Deployment\/ledger: unknown field spec\.template\.spec\.containers\[0\]\.readinesProbe/);
  });

  test("a wrong type", async () => {
    const dir = brokenOverlay(DEV, [
      { target: LEDGER_DEPLOYMENT, ops: [{ op: "replace", path: `${CONTAINER}/ports/0/containerPort`, value: "grpc" }] },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /schema: \/spec\/template\/spec\/containers\/0\/ports\/0\/containerPort must be integer/);
  });

  test("a container that may run as root and write its filesystem", async () => {
    const dir = brokenOverlay(DEV, [
      {
        target: LEDGER_DEPLOYMENT,
        ops: [
          { op: "remove", path: `${CONTAINER}/securityContext` },
          { op: "remove", path: "/spec/template/spec/securityContext" },
        ],
      },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /Deployment\/ledger container server: runAsNonRoot must be true/);
    assert.match(run.stdout, /Deployment\/ledger container server: securityContext\.readOnlyRootFilesystem must be true/);
    assert.match(run.stdout, /Deployment\/ledger container server: securityContext\.capabilities\.drop must include ALL/);
  });

  test("a missing probe and an unnamed port", async () => {
    const dir = brokenOverlay(DEV, [
      {
        target: LEDGER_DEPLOYMENT,
        ops: [
          { op: "remove", path: `${CONTAINER}/livenessProbe` },
          { op: "remove", path: `${CONTAINER}/ports/1/name` },
        ],
      },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /Deployment\/ledger container server: livenessProbe missing/);
    assert.match(run.stdout, /Deployment\/ledger container server: port 9464 has no name/);
  });

  test("a credential written as a literal", async () => {
    const dir = brokenOverlay(DEV, [
      { target: LEDGER_DEPLOYMENT, ops: [{ op: "add", path: `${CONTAINER}/env/-`, value: { name: "RESEND_API_KEY", value: "re_123" } }] },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /env RESEND_API_KEY looks like a credential/);
  });

  test("replicas on a Deployment an HPA owns, and an unpinned production image", async () => {
    const dir = brokenOverlay(
      PROD,
      [
        {
          target: { kind: "Deployment", name: "gateway" },
          ops: [
            { op: "add", path: "/spec/replicas", value: 3 },
            { op: "replace", path: `${CONTAINER}/image`, value: "registry.example.com/agentic/gateway:dev" },
          ],
        },
      ],
      { prodName: true },
    );
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /Deployment\/gateway: sets spec\.replicas but HorizontalPodAutoscaler\/gateway owns the count/);
    assert.match(run.stdout, /image registry\.example\.com\/agentic\/gateway:dev: production images are pinned/);
  });

  test("a Service whose target port no pod declares", async () => {
    const dir = brokenOverlay(DEV, [
      { target: { kind: "Service", name: "ledger" }, ops: [{ op: "replace", path: "/spec/ports/0/targetPort", value: "grcp" }] },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /Service\/ledger: port grpc: targetPort grcp is not a container port/);
  });

  test("an overlay kustomize cannot build", async () => {
    const run = await validate([join(scratch, "does-not-exist")]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /kubectl kustomize .*does-not-exist failed/);
  });
});

describe("the env contract against configSchema", SIDE_BY_SIDE, () => {
  const ledgerSchema = `z.object({
    APP_ENV: z.enum(["development", "test", "production"]),
    PORT: z.coerce.number().int(),
    METRICS_PORT: z.coerce.number().int(),
    LOG_LEVEL: z.string(),
    NATS_STREAM_REPLICAS: z.coerce.number().int().default(1),
    NATS_STREAM_MAX_BYTES: z.coerce.number().int().optional(),
    NATS_URL: z.string().startsWith("nats://"),
    LEDGER_STORE: z.enum(["memory", "mongodb"]),
    MONGODB_URI: z.string().startsWith("mongodb://"),
    AGENTIC_API_KEYS: z.string().regex(/^aak_\\w+:\\w+(,aak_\\w+:\\w+)*$/),
    HOLD_TTL_MS: z.coerce.number().int().positive(),
    TRUSTED_SERVICE_KEYS: z.string().startsWith("gateway="),
    NATS_USER: z.literal("ledger"),
    NATS_PASSWORD: z.string().min(1),
    LEDGER_SHARDS: z.coerce.number().int(),
  })`;

  test("a variable the schema requires but the manifest does not set is an error", async () => {
    const withoutLogging = ledgerSchema.replace("    METRICS_PORT: z.coerce.number().int(),\n    LOG_LEVEL: z.string(),\n", "");
    const root = fakeRepo({ ledger: withoutLogging });
    const run = await validate(["--root", root, DEV]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /ERROR Deployment\/ledger: configSchema rejects the environment: LEDGER_SHARDS:/);
    // Secret values (dev Secret generator) and literals satisfied the other keys.
    assert.doesNotMatch(run.stdout, /rejects the environment: (MONGODB_URI|AGENTIC_API_KEYS|NATS_URL|PORT|HOLD_TTL_MS)/);
    // Set by the manifest, read by no schema key: an error too (a setting that silently does nothing).
    assert.match(run.stdout, /ERROR Deployment\/ledger: sets LOG_LEVEL, METRICS_PORT but no configSchema key reads it/);
  });

  test("a value in the wrong format is an error", async () => {
    const root = fakeRepo({ ledger: ledgerSchema.replace('z.enum(["memory", "mongodb"])', 'z.enum(["memory", "postgres"])') });
    const run = await validate(["--root", root, DEV]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /configSchema rejects the environment: LEDGER_STORE:/);
  });

  test("prod Secrets that exist only in the cluster are checked with the dev example's values", async () => {
    const root = fakeRepo({ ledger: ledgerSchema.replace("LEDGER_SHARDS: z.coerce.number().int(),", "") });
    const run = await validate(["--root", root, DEV, PROD]);
    assert.equal(run.status, 0, run.stdout);
    assert.doesNotMatch(run.stdout, /ERROR/);
  });

  test("a service whose dist is not built is skipped with a message, the others are checked", async () => {
    const root = fakeRepo(
      { ledger: ledgerSchema.replace("LEDGER_SHARDS: z.coerce.number().int(),", ""), gateway: "z.object({})" },
      { withoutDist: ["gateway"] },
    );
    const run = await validate(["--root", root, DEV]);
    assert.equal(run.status, 0, run.stdout);
    assert.match(run.stdout, /SKIP  Deployment\/gateway: gateway\/dist\/config\.js is not built; env contract not checked/);
    // The built one is checked: not skipped, and its environment passed its schema.
    assert.doesNotMatch(run.stdout, /(SKIP|ERROR|WARN)\s+Deployment\/ledger/);
  });

  test("a config module without a zod configSchema is an error", async () => {
    const root = fakeRepo({ ledger: "undefined" });
    const run = await validate(["--root", root, DEV]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /services\/ledger\/dist\/config\.js does not export configSchema as a zod object/);
  });
});

test("without kubectl on PATH it says how to install it, in one line", async () => {
  const run = await validate([], { ...process.env, PATH: join(scratch, "empty-path") });
  assert.equal(run.status, 2);
  assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
  assert.match(run.stderr, /kubectl not found on PATH: install kubectl v1\.32/);
});

describe("the edge, monitoring and stream settings of prod", SIDE_BY_SIDE, () => {
  const ROUTE = { group: "gateway.networking.k8s.io", kind: "HTTPRoute", name: "gateway" };

  test("the custom resources are validated like the core kinds, unknown fields included", async () => {
    const dir = brokenOverlay(PROD, [
      { target: ROUTE, ops: [{ op: "add", path: "/spec/rules/0/timeouts/requst", value: "1s" }] },
      { target: { kind: "PodMonitor", name: "agentic-services" }, ops: [{ op: "add", path: "/spec/podMetricEndpoints", value: [] }] },
      { target: { kind: "Certificate", name: "agentic-api-tls" }, ops: [{ op: "replace", path: "/spec/privateKey/size", value: "big" }] },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /ERROR HTTPRoute\/gateway: unknown field spec\.rules\[0\]\.timeouts\.requst/);
    assert.match(run.stdout, /ERROR PodMonitor\/agentic-services: unknown field spec\.podMetricEndpoints/);
    assert.match(run.stdout, /ERROR Certificate\/agentic-api-tls: schema: \/spec\/privateKey\/size must be integer/);
  });

  test("a route to a port the Service lacks, a proxy timeout below the gateway's execute deadline, a certificate for another host (needs gateway built)", async () => {
    const dir = brokenOverlay(PROD, [
      {
        target: ROUTE,
        ops: [
          { op: "replace", path: "/spec/rules/0/backendRefs/0/port", value: 9464 },
          { op: "replace", path: "/spec/rules/0/timeouts/request", value: "30s" },
        ],
      },
      {
        target: { kind: "Certificate", name: "agentic-api-tls" },
        ops: [{ op: "replace", path: "/spec/dnsNames", value: ["other.example.com"] }],
      },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /ERROR HTTPRoute\/gateway: Service gateway has no port 9464/);
    assert.match(run.stdout, /ERROR HTTPRoute\/gateway: rules\[0\]\.timeouts\.request 30s must exceed the gateway's EXECUTE_DEADLINE_MS/);
    assert.match(
      run.stdout,
      /ERROR Gateway\/agentic-edge listener https: Certificate agentic-api-tls does not cover hostname api\.agentic\.example\.com/,
    );
  });

  test("a service no PodMonitor scrapes, and an alert without its runbook", async () => {
    const dir = brokenOverlay(PROD, [
      {
        target: { kind: "PodMonitor", name: "agentic-services" },
        ops: [{ op: "replace", path: "/spec/selector/matchExpressions/1/values", value: ["edge"] }],
      },
      {
        target: { kind: "PrometheusRule", name: "agentic-bus" },
        ops: [{ op: "replace", path: "/spec/groups/1/rules/0/annotations/runbook_url", value: "docs/runbooks/Nowhere.md" }],
      },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    for (const service of ["catalog", "router", "executor", "ledger"]) {
      assert.match(run.stdout, new RegExp(`ERROR Deployment/${service}: no PodMonitor scrapes it`));
    }
    assert.doesNotMatch(run.stdout, /ERROR Deployment\/gateway: no PodMonitor/);
    assert.match(
      run.stdout,
      /ERROR PrometheusRule\/agentic-bus alert AgenticStreamFilling: annotations\.runbook_url must be an absolute https URL ending in \/docs\/runbooks\/AgenticStreamFilling\.md/,
    );
  });

  test("a ranking setting the executor and the router set differently (needs router and executor built)", async () => {
    const dir = brokenOverlay(PROD, [
      { target: { kind: "ConfigMap", name: "executor-config" }, ops: [{ op: "add", path: "/data/BREAKER_FAILURES", value: "3" }] },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(
      run.stdout,
      /ERROR Deployment\/executor: BREAKER_FAILURES is 3 here but 5 in the router: recommend and execute would rank differently/,
    );
  });

  test("a stream kept shorter than the routers replay, or allowed more than the NATS server stores (needs ledger and router built)", async () => {
    const dir = brokenOverlay(PROD, [
      {
        target: { kind: "ConfigMap", name: "ledger-config" },
        ops: [
          { op: "add", path: "/data/NATS_STREAM_KEEP_MS", value: "60000" },
          { op: "replace", path: "/data/NATS_STREAM_MAX_BYTES", value: "17179869184" },
        ],
      },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /ERROR Deployment\/ledger: NATS_STREAM_KEEP_MS \(60000\) is below the router's OUTCOME_REPLAY_MS \(600000\)/);
    assert.match(
      run.stdout,
      /ERROR Deployment\/ledger: NATS_STREAM_KEEP_MS \(60000\) is below the executor's OUTCOME_REPLAY_MS \(600000\)/,
    );
    assert.match(
      run.stdout,
      /ERROR ConfigMap\/nats-config: the streams and buckets may hold \d+ bytes together \(.*EXECUTIONS 17179869184 \(ledger\), .*not below the NATS server's max_file_store \(8589934592 bytes\)/,
    );
  });
});

describe("the executor's autoscaler and the stream it fills", SIDE_BY_SIDE, () => {
  const EXECUTOR_HPA = { kind: "HorizontalPodAutoscaler", name: "executor" };
  test("more executors than the EXECUTIONS stream is sized for, scaled on CPU, removed faster than they drain (needs ledger built)", async () => {
    const dir = brokenOverlay(PROD, [
      {
        target: EXECUTOR_HPA,
        ops: [
          { op: "replace", path: "/spec/maxReplicas", value: 40 },
          { op: "remove", path: "/spec/metrics/0" },
          { op: "replace", path: "/spec/behavior/scaleDown/policies/0", value: { type: "Percent", value: 50, periodSeconds: 15 } },
        ],
      },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    // 1 h x 40 x 20/s x 2150 B / 0.5 = 12384000000 > 4 GiB.
    assert.match(
      run.stdout,
      /ERROR Deployment\/ledger: NATS_STREAM_MAX_BYTES \(4294967296\) is below 12384000000: NATS_STREAM_KEEP_MS 3600000 ms at the executors' peak \(maxReplicas 40 x 20\/s = 800 executes\/s\)/,
    );
    assert.match(run.stdout, /ERROR HorizontalPodAutoscaler\/executor: must scale on the Pods metric executor_executions_in_flight/);
    assert.match(
      run.stdout,
      /ERROR HorizontalPodAutoscaler\/executor: behavior\.scaleDown must remove one executor per period of at least its terminationGracePeriodSeconds \(100 s\)/,
    );
  });

  test("an executor autoscaler that does not say the peak it is sized for", async () => {
    const dir = brokenOverlay(PROD, [
      { target: EXECUTOR_HPA, ops: [{ op: "remove", path: "/metadata/annotations/agentic.dev~1peak-executes-per-second-per-replica" }] },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(
      run.stdout,
      /ERROR HorizontalPodAutoscaler\/executor: annotation agentic\.dev\/peak-executes-per-second-per-replica is missing/,
    );
  });
});

describe("production settings that lock users out or open doors", SIDE_BY_SIDE, () => {
  const GATEWAY_CONFIG = { kind: "ConfigMap", name: "gateway-config" };
  const LEDGER_CONFIG = { kind: "ConfigMap", name: "ledger-config" };
  const policy = (name) => ({ kind: "NetworkPolicy", name });
  const selectNobody = { op: "replace", path: "/spec/podSelector/matchLabels/app.kubernetes.io~1name", value: "nobody" };
  const TOP_UPS = [
    { op: "add", path: "/data/TOP_UP_FACILITATOR_URL", value: "https://x402.org/facilitator" },
    { op: "add", path: "/data/TOP_UP_PAY_TO", value: "0x2Fe5b450cd7Ec8347d9d9D6D726b4cfe1d46D5f5" },
    { op: "add", path: "/data/TOP_UP_NETWORK", value: "eip155:8453" },
  ];

  test("a gateway behind the edge that trusts no proxy hop, or more hops than stand in front (needs gateway built)", async () => {
    const untrusted = await validate([
      brokenOverlay(PROD, [{ target: GATEWAY_CONFIG, ops: [{ op: "remove", path: "/data/TRUST_PROXY_HOPS" }] }]),
    ]);
    assert.equal(untrusted.status, 1, untrusted.stdout);
    assert.match(
      untrusted.stdout,
      /ERROR Deployment\/gateway: sits behind 1 proxy \(HTTPRoute\/gateway through Gateway agentic-edge\) but TRUST_PROXY_HOPS is 0: every client would share the proxy's address/,
    );
    const spoofable = await validate([
      brokenOverlay(PROD, [{ target: GATEWAY_CONFIG, ops: [{ op: "replace", path: "/data/TRUST_PROXY_HOPS", value: "2" }] }]),
    ]);
    assert.equal(spoofable.status, 1, spoofable.stdout);
    assert.match(
      spoofable.stdout,
      /ERROR Deployment\/gateway: TRUST_PROXY_HOPS is 2 but only 1 proxy stands in front .*could choose its own address/,
    );
    // A CDN in front of the Gateway, said on the Gateway: two hops are then right.
    const behindCdn = await validate([
      brokenOverlay(PROD, [
        { target: GATEWAY_CONFIG, ops: [{ op: "replace", path: "/data/TRUST_PROXY_HOPS", value: "2" }] },
        {
          target: { group: "gateway.networking.k8s.io", kind: "Gateway", name: "agentic-edge" },
          ops: [{ op: "add", path: "/metadata/annotations", value: { "agentic.dev/proxies-in-front": "1" } }],
        },
      ]),
    ]);
    assert.equal(behindCdn.status, 0, behindCdn.stdout);
  });

  test("a configured dependency the NetworkPolicies block: the gateway's Redis, the ledger's facilitator, the router's ledger (needs services built)", async () => {
    const dir = brokenOverlay(PROD, [
      { target: policy("allow-egress-gateway-redis"), ops: [selectNobody] },
      { target: LEDGER_CONFIG, ops: TOP_UPS },
      { target: policy("allow-egress-ledger-facilitator"), ops: [selectNobody] },
      { target: policy("allow-ingress-ledger"), ops: [{ op: "remove", path: "/spec/ingress/0/from/1" }] },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(
      run.stdout,
      /ERROR Deployment\/gateway: RATE_LIMIT_REDIS_URL \(in a Secret not in the manifests, assumed outside the cluster on port 6379\) is blocked: no NetworkPolicy lets its pods open connections outside the cluster on port 6379/,
    );
    assert.match(
      run.stdout,
      /ERROR Deployment\/ledger: TOP_UP_FACILITATOR_URL \(x402\.org:443\) is blocked: no NetworkPolicy lets its pods open connections outside the cluster on port 443/,
    );
    assert.match(
      run.stdout,
      /ERROR Deployment\/router: LEDGER_ADDR \(ledger:50051\) is blocked: no NetworkPolicy lets Deployment\/ledger accept it on port grpc/,
    );
    // The executor and the gateway still reach the ledger: only the router's arrow was removed.
    assert.doesNotMatch(run.stdout, /ERROR Deployment\/(gateway|executor): LEDGER_ADDR/);
  });

  test("the shipped policies let the ledger reach a facilitator once top-ups are configured", async () => {
    const run = await validate([brokenOverlay(PROD, [{ target: LEDGER_CONFIG, ops: TOP_UPS }])]);
    assert.equal(run.status, 0, run.stdout);
  });

  test("streams and buckets whose byte limits add up to more than JetStream's storage (needs ledger and router built)", async () => {
    const dir = brokenOverlay(PROD, [
      // Below max_file_store (8 GiB) alone; with the router's two buckets (256 MiB each), the executor's three vendor quota buckets and the ledger's (1 MiB) above it.
      {
        target: LEDGER_CONFIG,
        ops: [{ op: "replace", path: "/data/NATS_STREAM_MAX_BYTES", value: String(8 * 1024 ** 3 - 256 * 1024 ** 2) }],
      },
    ]);
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(
      run.stdout,
      /ERROR ConfigMap\/nats-config: the streams and buckets may hold 8985247744 bytes together \(executor_approvals 16777216 \(executor\), vendor_quota_minute 8388608 \(executor\), vendor_quota_day 33554432 \(executor\), vendor_quota_month 67108864 \(executor\), EXECUTIONS 8321499136 \(ledger\), ledger_store 1048576 \(ledger\), router_recommendations 268435456 \(router\), router_preferences 268435456 \(router\)\), not below the NATS server's max_file_store \(8589934592 bytes\)/,
    );
  });

  test("NATS cluster routes without an authorization of their own", async () => {
    const conf = readFileSync(join(REPO_ROOT, "deploy/k8s/components/nats-cluster/nats.conf"), "utf8");
    const open = conf.replace(/ {2}authorization \{[^}]*\}\n/, "");
    assert.notEqual(open, conf);
    const dir = brokenOverlay(PROD, [], {
      files: { "nats.conf": open },
      extra: ["configMapGenerator:", "  - name: nats-config", "    behavior: merge", "    files: [nats.conf]"],
    });
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /ERROR ConfigMap\/nats-config: nats\.conf: the cluster block has no authorization/);
  });

  test("a development key in a production trust list, or as a production identity", async () => {
    // An operator who copied the development overlay's identity files into production.
    const devSecret = (name) => readFileSync(join(DEV, "secrets", name), "utf8");
    const dir = brokenOverlay(PROD, [], {
      files: { "trust.env": devSecret("identity-trust.dev.env"), "gateway.env": devSecret("identity-gateway.dev.env") },
      extra: [
        "generatorOptions:",
        "  disableNameSuffixHash: true",
        "secretGenerator:",
        "  - name: agentic-identity-trust",
        "    envs: [trust.env]",
        "  - name: agentic-identity-gateway",
        "    envs: [gateway.env]",
      ],
    });
    const run = await validate([dir]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(
      run.stdout,
      /ERROR Deployment\/ledger: TRUSTED_SERVICE_KEYS trusts a development key as gateway \(its private key is committed in deploy\/k8s\/overlays\/dev\/secrets\)/,
    );
    assert.match(run.stdout, /ERROR Deployment\/ledger: TRUSTED_SERVICE_KEYS trusts a development key as admin/);
    assert.match(run.stdout, /ERROR Deployment\/router: TRUSTED_SERVICE_KEYS trusts a development key as gateway/);
    assert.match(run.stdout, /ERROR Deployment\/gateway: SERVICE_IDENTITY_KEY is a development key/);
    // The development overlay itself runs on them, as it should.
    assert.doesNotMatch((await validate([DEV])).stdout, /development key/);
  });
});
