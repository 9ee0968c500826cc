// Who production trusts, which no schema sees:
// - the client address: a gateway behind a proxy (a Gateway API HTTPRoute or an Ingress to its Service)
//   must trust exactly that many X-Forwarded-For hops (TRUST_PROXY_HOPS). Fewer, and every client shares
//   the proxy's address, so some 60 bad-key requests a minute from anyone lock out every new or idle key
//   (RATE_LIMIT_UNAUTHENTICATED_PER_MIN); more, and a client picks its own address. Each Gateway or
//   Ingress counts as one proxy, plus `agentic.dev/proxies-in-front` (e.g. "1" for a CDN) on it.
// - the service identities: a production trust list (TRUSTED_SERVICE_KEYS) or identity key
//   (SERVICE_IDENTITY_KEY) holding a development key, whose private half is committed in
//   overlays/dev/secrets, would let anyone with the repository call as that service.
// - the NATS cluster: routes see every message of every user and vote in JetStream, so a `cluster`
//   block needs an `authorization` of its own (components/nats-cluster/nats.conf).
import { createPrivateKey, createPublicKey } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { containerEnv } from "./env-contract.mjs";
import { subjectOf } from "./findings.mjs";
import { isAgenticService, podLabelsOf } from "./workloads.mjs";

/** Annotation on a Gateway or Ingress: how many proxies stand in front of it (each appends to X-Forwarded-For). */
export const PROXIES_IN_FRONT = "agentic.dev/proxies-in-front";

/** Where the development overlay keeps its keys (fake, committed: for that overlay only). */
const DEV_SECRETS_DIR = "deploy/k8s/overlays/dev/secrets";

/**
 * @param {object[]} docs rendered objects of one overlay
 * @param {import("./findings.mjs").Findings} findings
 * @param {{ repoRoot: string, configs: Map<string, Record<string, unknown>> }} options repoRoot: where overlays/dev/secrets is
 */
export function checkProductionTrust(docs, findings, { repoRoot, configs }) {
  checkProxyHops(docs, findings, configs);
  checkNatsRoutes(docs, findings);
  if ([...configs.values()].some((c) => c?.APP_ENV === "production")) checkNoDevelopmentKeys(docs, findings, repoRoot);
}

function checkProxyHops(docs, findings, configs) {
  const gateway = docs.find((d) => isAgenticService(d) && d.metadata.name === "gateway");
  const hops = configs.get("gateway")?.TRUST_PROXY_HOPS;
  if (!gateway || typeof hops !== "number") return;
  const gatewayServices = new Set(
    docs
      .filter((d) => d.kind === "Service" && Object.keys(d.spec?.selector ?? {}).length > 0)
      .filter((s) => Object.entries(s.spec.selector).every(([k, v]) => podLabelsOf(gateway)[k] === v))
      .map((s) => s.metadata.name),
  );
  const gateways = new Map(docs.filter((d) => d.kind === "Gateway").map((g) => [g.metadata.name, g]));
  /** @type {{ via: string, proxies: number }[]} */
  const edges = [];
  for (const route of docs.filter((d) => d.kind === "HTTPRoute")) {
    const reaches = (route.spec?.rules ?? []).some((r) => (r.backendRefs ?? []).some((b) => !b.kind && gatewayServices.has(b.name)));
    if (!reaches) continue;
    for (const parent of route.spec?.parentRefs ?? []) {
      edges.push({ via: `${subjectOf(route)} through Gateway ${parent.name}`, proxies: 1 + inFront(gateways.get(parent.name)) });
    }
  }
  for (const ingress of docs.filter((d) => d.kind === "Ingress")) {
    const backends = [
      ingress.spec?.defaultBackend,
      ...(ingress.spec?.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend)),
    ];
    if (backends.some((b) => gatewayServices.has(b?.service?.name))) edges.push({ via: subjectOf(ingress), proxies: 1 + inFront(ingress) });
  }
  for (const { via, proxies } of edges) {
    if (hops < proxies) {
      findings.error(
        "Deployment/gateway",
        `sits behind ${proxies} prox${proxies === 1 ? "y" : "ies"} (${via}) but TRUST_PROXY_HOPS is ${hops}: every client would share ` +
          "the proxy's address, and a few bad-key requests a minute from anyone would lock out every new or idle key " +
          `(RATE_LIMIT_UNAUTHENTICATED_PER_MIN). Set TRUST_PROXY_HOPS=${proxies}`,
      );
    } else if (hops > proxies) {
      findings.error(
        "Deployment/gateway",
        `TRUST_PROXY_HOPS is ${hops} but only ${proxies} prox${proxies === 1 ? "y stands" : "ies stand"} in front (${via}): a client ` +
          `could choose its own address with X-Forwarded-For. Set TRUST_PROXY_HOPS=${proxies}, or annotate the Gateway/Ingress with ${PROXIES_IN_FRONT}`,
      );
    }
  }
  if (edges.length === 0 && hops > 0) {
    findings.warning(
      "Deployment/gateway",
      `TRUST_PROXY_HOPS is ${hops} but no HTTPRoute or Ingress in the manifests reaches the gateway: unless a proxy outside them does, clients choose their address`,
    );
  }
}

function checkNatsRoutes(docs, findings) {
  for (const map of docs.filter((d) => d.kind === "ConfigMap" && /^nats-config/.test(d.metadata.name))) {
    const cluster = /^cluster\s*\{([\s\S]*?)^\}/m.exec(map.data?.["nats.conf"] ?? "")?.[1];
    if (cluster !== undefined && !/^\s*authorization\s*\{/m.test(cluster.replace(/#.*$/gm, ""))) {
      findings.error(
        subjectOf(map),
        "nats.conf: the cluster block has no authorization: whatever reaches the route port could join as a node, " +
          "read every subject and vote in JetStream (see components/nats-cluster/nats.conf)",
      );
    }
  }
}

/** Proxies in front of a Gateway or Ingress, from its annotation (0 without one). */
function inFront(doc) {
  const n = Number(doc?.metadata?.annotations?.[PROXIES_IN_FRONT] ?? 0);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

function checkNoDevelopmentKeys(docs, findings, repoRoot) {
  const devKeys = developmentPublicKeys(repoRoot);
  if (devKeys.size === 0) return;
  const configMaps = new Map(docs.filter((d) => d.kind === "ConfigMap").map((d) => [d.metadata.name, d.data ?? {}]));
  const secrets = new Map(docs.filter((d) => d.kind === "Secret").map((d) => [d.metadata.name, secretData(d)]));
  for (const deployment of docs.filter(isAgenticService)) {
    const server = (deployment.spec.template.spec.containers ?? []).find((c) => c.name === "server");
    if (!server) continue;
    // Only what this overlay itself holds: Secrets that exist only in the cluster are not the development examples.
    const { values } = containerEnv(server, { configMaps, secrets, secretExamples: new Map() });
    for (const [name, key] of trustedKeys(values.get("TRUSTED_SERVICE_KEYS"))) {
      if (devKeys.has(key))
        findings.error(
          subjectOf(deployment),
          `TRUSTED_SERVICE_KEYS trusts a development key as ${name} (its private key is committed in ${DEV_SECRETS_DIR}): ` +
            `anyone with the repository could call as ${name}. Make production's keys with \`npm run identities\``,
        );
    }
    const own = publicKeyOf(values.get("SERVICE_IDENTITY_KEY"));
    if (own && devKeys.has(own))
      findings.error(
        subjectOf(deployment),
        `SERVICE_IDENTITY_KEY is a development key (committed in ${DEV_SECRETS_DIR}); make production's with \`npm run identities\``,
      );
  }
}

/** The public keys of every development identity: the keys (public or private) in the dev overlay's secrets. */
export function developmentPublicKeys(repoRoot) {
  const keys = new Set();
  let files = [];
  try {
    files = readdirSync(join(repoRoot, DEV_SECRETS_DIR));
  } catch {
    return keys;
  }
  for (const file of files) {
    const text = readFileSync(join(repoRoot, DEV_SECRETS_DIR, file), "utf8");
    for (const [token] of text.matchAll(/[A-Za-z0-9+/]{40,}={0,2}/g)) {
      const key = publicKeyOf(token) ?? spki(token);
      if (key) keys.add(key);
    }
  }
  return keys;
}

/** `name=<base64 SPKI>,...` pairs of a trust list. */
function trustedKeys(list) {
  return String(list ?? "")
    .split(",")
    .map((pair) => pair.trim().split("="))
    .filter(([name, ...key]) => name && key.length > 0)
    .map(([name, ...key]) => [name, key.join("=")]);
}

/** The base64 SPKI public key of a base64 PKCS#8 private key, or undefined when it is not one. */
function publicKeyOf(privateKey) {
  if (!privateKey) return undefined;
  try {
    const key = createPrivateKey({ key: Buffer.from(privateKey, "base64"), format: "der", type: "pkcs8" });
    return createPublicKey(key).export({ format: "der", type: "spki" }).toString("base64");
  } catch {
    return undefined;
  }
}

/** A base64 SPKI public key in its canonical form, or undefined when it is not one. */
function spki(publicKey) {
  try {
    return createPublicKey({ key: Buffer.from(publicKey, "base64"), format: "der", type: "spki" })
      .export({ format: "der", type: "spki" })
      .toString("base64");
  } catch {
    return undefined;
  }
}

function secretData(doc) {
  const decoded = Object.fromEntries(
    Object.entries(doc.data ?? {}).map(([k, v]) => [k, Buffer.from(String(v), "base64").toString("utf8")]),
  );
  return { ...decoded, ...(doc.stringData ?? {}) };
}
