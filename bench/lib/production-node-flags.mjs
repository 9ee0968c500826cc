// The node flags each service runs with in production, read from its Deployment's server command
// (deploy/k8s/base/<service>/deployment.yaml: ["node", <flags>..., "--require", <preload>, <main>]). The
// benches start every service with them, as they run production's head sampling: a young generation of
// 8 MB semi-spaces, not Node's default of up to 64 MB, decides a service's RSS and part of its GC time.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { rootRequire, ROOT } from "./paths.mjs";

/**
 * Our services: those whose manifests run a node command, and those the RSS targets apply to (the sandbox
 * and nats-server are stand-ins, not deployed by us).
 */
export const DEPLOYED_SERVICES = ["gateway", "catalog", "router", "ledger", "executor"];

/** A service's node command as its manifest runs it, without "node": ["--flag", ..., "<main>"]. */
export function manifestCommand(service, root = ROOT) {
  const { parseAllDocuments } = rootRequire("yaml");
  const file = `deploy/k8s/base/${service}/deployment.yaml`;
  const docs = parseAllDocuments(readFileSync(join(root, file), "utf8")).map((d) => d.toJS());
  const command = docs.find((d) => d?.kind === "Deployment")?.spec.template.spec.containers.find((c) => c.name === "server")?.command;
  if (!Array.isArray(command) || command[0] !== "node") throw new Error(`${file}: no node command for the server`);
  return command.slice(1);
}

/** The node flags of that command: those before the preload and the script (heap sizes, --expose-gc). */
export function productionNodeFlags(service, root = ROOT) {
  const command = manifestCommand(service, root);
  const end = command.findIndex((arg) => arg === "--require" || !arg.startsWith("--"));
  return command.slice(0, end === -1 ? command.length : end);
}

/**
 * Each deployed service's production flags, then the extra ones asked for it (node takes the last of a
 * flag given twice, so an experiment's `--max-semi-space-size` wins). A checkout without manifests (an
 * older commit's) gets only the extra ones.
 */
export function productionNodeArgs(extra = {}, root = ROOT) {
  const args = structuredClone(extra);
  if (!existsSync(join(root, "deploy/k8s/base"))) return args;
  for (const service of DEPLOYED_SERVICES) args[service] = [...productionNodeFlags(service, root), ...(args[service] ?? [])];
  return args;
}
