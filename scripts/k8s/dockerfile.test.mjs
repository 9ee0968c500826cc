// Tests of ./Dockerfile and ./.dockerignore, which cannot be built here (no Docker daemon): the
// stages and commands every service's image shares (prune, build, runtime), a non-root runtime, no secrets in layers, and
// (with the real turbo) that the pruned tree plus the Dockerfile's own COPYs hold every file the
// build needs.
// Run: node --test scripts/k8s/*.test.mjs
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Instructions of a Dockerfile as {instruction, args}, line continuations joined, comments dropped. */
function parseDockerfile(text) {
  const logical = [];
  let current = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("#") || line === "") continue;
    current += (current ? " " : "") + line.replace(/\\$/, "").trim();
    if (!line.endsWith("\\")) {
      logical.push(current);
      current = "";
    }
  }
  return logical.map((line) => {
    const [instruction, ...rest] = line.split(/\s+/);
    return { instruction: instruction.toUpperCase(), args: rest.join(" ") };
  });
}

/** Instructions grouped by stage name (`FROM x AS name`). */
function stagesOf(instructions) {
  const stages = new Map();
  let current;
  for (const ins of instructions) {
    if (ins.instruction === "FROM") {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      current = { from: m[1], name: m[2] ?? `stage${stages.size}`, instructions: [] };
      stages.set(current.name, current);
    } else current?.instructions.push(ins);
  }
  return stages;
}

const dockerfile = readFileSync(join(REPO_ROOT, "Dockerfile"), "utf8");
const instructions = parseDockerfile(dockerfile);
const stages = stagesOf(instructions);
const runs = (stage) =>
  stages
    .get(stage)
    .instructions.filter((i) => i.instruction === "RUN")
    .map((i) => i.args);
const indexOf = (stage, predicate) => stages.get(stage).instructions.findIndex(predicate);

describe("Dockerfile", () => {
  test("has the prune, build and runtime stages, the runtime on Node 24 slim or distroless", () => {
    assert.deepEqual(
      [...stages.keys()].filter((s) => ["prune", "build", "runtime"].includes(s)),
      ["prune", "build", "runtime"],
    );
    const nodeImage = /ARG NODE_IMAGE=(\S+)/.exec(dockerfile)?.[1] ?? "";
    const runtimeFrom = stages.get("runtime").from.replace("${NODE_IMAGE}", nodeImage);
    assert.match(runtimeFrom, /^(node:24[\w.-]*-(bookworm-)?slim|gcr\.io\/distroless\/nodejs24)/);
    assert.equal([...stages.values()].at(-1).name, "runtime", "the runtime stage is the last (default target)");
  });

  test("prunes to the service's workspaces with turbo", () => {
    assert.ok(runs("prune").some((r) => /turbo prune "?@agentic\/\$\{SERVICE\}"? --docker/.test(r)));
  });

  test("installs exactly the pruned lockfile (npm ci) before copying sources", () => {
    const copyJson = indexOf("build", (i) => i.instruction === "COPY" && i.args.includes("/app/out/json/"));
    const install = indexOf("build", (i) => i.instruction === "RUN" && /npm ci --no-audit --no-fund/.test(i.args));
    const copyFull = indexOf("build", (i) => i.instruction === "COPY" && i.args.includes("/app/out/full/"));
    const build = indexOf(
      "build",
      (i) => i.instruction === "RUN" && /turbo run build --filter="?@agentic\/\$\{SERVICE\}\.\.\."?/.test(i.args),
    );
    assert.ok(copyJson >= 0 && install > copyJson && copyFull > install && build > copyFull, "json -> install -> full -> build");
    for (const ins of runs("build")) assert.doesNotMatch(ins, /npm install\b/, ins);
    assert.ok(
      runs("build").some((r) => /npm prune --omit=dev/.test(r)),
      "dev dependencies are pruned",
    );
  });

  test("gives npm ci the repository's dependency patches (the root postinstall applies them)", () => {
    const patches = indexOf("build", (i) => i.instruction === "COPY" && /\/app\/patches \.\/patches$/.test(i.args));
    const install = indexOf("build", (i) => i.instruction === "RUN" && /npm ci\b/.test(i.args));
    assert.ok(patches >= 0 && patches < install, "patches/ is in place before npm ci");
    assert.equal(JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).scripts.postinstall, "patch-package");
  });

  test("writes the SBOM of the production dependencies before pruning the dev ones", () => {
    const steps = runs("build").join("\n");
    const sbom = steps.search(/npm sbom --sbom-format cyclonedx --omit dev --workspace "@agentic\/\$\{SERVICE\}" > sbom\.cdx\.json/);
    assert.ok(sbom >= 0, "npm sbom of the service's workspace");
    assert.ok(steps.indexOf("npm prune --omit=dev") > sbom, "npm sbom reads the full tree, so it runs before the prune");
  });

  test("labels the image with the version its traces and metrics report", () => {
    const runtime = stages.get("runtime").instructions;
    assert.ok(runtime.some((i) => i.instruction === "ARG" && /^VERSION=/.test(i.args)));
    assert.ok(runtime.some((i) => i.instruction === "ENV" && /SERVICE_VERSION=\$\{VERSION\}/.test(i.args)));
    assert.ok(runtime.some((i) => i.instruction === "LABEL" && /org\.opencontainers\.image\.version="\$\{VERSION\}"/.test(i.args)));
  });

  test("approves exactly the install scripts the build needs: the pinned Node binary", () => {
    const { allowScripts } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
    assert.deepEqual(
      Object.entries(allowScripts)
        .filter(([, allowed]) => allowed)
        .map(([name]) => name),
      ["node"],
    );
  });

  test("runs as the non-root node user with the telemetry preload", () => {
    const users = stages.get("runtime").instructions.filter((i) => i.instruction === "USER");
    assert.equal(users.at(-1)?.args, "1000:1000");
    const cmd = stages.get("runtime").instructions.find((i) => i.instruction === "CMD");
    assert.deepEqual(JSON.parse(cmd.args), ["node", "--require", "@agentic/platform/telemetry", "service/dist/main.js"]);
    assert.ok(stages.get("runtime").instructions.some((i) => i.instruction === "EXPOSE"));
    assert.match(runs("build").join("\n"), /gateway\) dir=gateway ;; \*\) dir="services\/\$\{SERVICE\}"/);
  });

  test("puts no secret in an ARG, ENV or layer", () => {
    for (const ins of instructions.filter((i) => i.instruction === "ARG" || i.instruction === "ENV")) {
      assert.doesNotMatch(ins.args, /(TOKEN|SECRET|PASSWORD|_KEY\b|NPM_AUTH)/i, `${ins.instruction} ${ins.args}`);
    }
    const copies = instructions.filter((i) => i.instruction === "COPY").map((i) => i.args);
    assert.ok(
      copies.every((c) => !/\.npmrc|\.env/.test(c)),
      "no credential file is copied",
    );
  });
});

describe(".dockerignore", () => {
  const ignore = readFileSync(join(REPO_ROOT, ".dockerignore"), "utf8")
    .split("\n")
    .map((l) => l.trim());
  test("keeps installs, builds, git and local credentials out of the context", () => {
    for (const pattern of ["**/node_modules", "**/dist", ".git", "**/.env", "**/.env.*", "**/.npmrc"]) {
      assert.ok(ignore.includes(pattern), `missing ${pattern}`);
    }
  });
});

describe("turbo prune output (real turbo)", () => {
  const out = mkdtempSync(join(tmpdir(), "k8s-prune-"));
  after(() => rmSync(out, { recursive: true, force: true }));

  test("with the Dockerfile's extra COPYs, every tsconfig `extends` of a pruned workspace resolves", () => {
    execFileSync(join(REPO_ROOT, "node_modules", ".bin", "turbo"), ["prune", "@agentic/catalog", "--docker", "--out-dir", out], {
      cwd: REPO_ROOT,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
      stdio: "ignore",
    });
    const extraCopies = instructions
      .filter((i) => i.instruction === "COPY" && !i.args.startsWith("--from"))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    assert.ok(existsSync(join(out, "json", "package-lock.json")), "the pruned lockfile is in out/json");
    const workspaces = JSON.parse(readFileSync(join(out, "full", "package.json"), "utf8")).workspaces;
    for (const ws of workspaces) {
      const tsconfig = join(out, "full", ws, "tsconfig.json");
      if (!existsSync(tsconfig)) continue;
      const parent = /"extends":\s*"([^"]+)"/.exec(readFileSync(tsconfig, "utf8"))?.[1];
      if (!parent) continue;
      const relativeToRoot = join(ws, parent).replace(/^(\.\.\/)+/, "");
      const inPrune = existsSync(join(out, "full", ws, parent));
      assert.ok(inPrune || extraCopies.includes(relativeToRoot), `${ws}/tsconfig.json extends ${parent}: not pruned and not copied`);
    }
  });
});
