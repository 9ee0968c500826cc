// `npm run catalog:generate -- <times> [outDir]`: writes a catalog <times> the size of the shipped one,
// for scale tests (catalog lists, intent routing). Copy k of every domain file becomes domain
// `<domain><k>` (17 domains x 100 = 1,700 domains, 5,300 capabilities), its DTO names made unique,
// and its capabilities specialized by a made-up word of their own (its "workspace"): the word joins the
// label, the synonyms and every example task ("... for kalomi"), so each copy can be told apart the way
// a large catalog's near-identical tools are (by the thing they act on). Deterministic: the same
// <times> writes the same files. Default outDir: generated/x<times> (git-ignored).
// `--wide <n>` adds domain `wide` whose one capability, `fanout.lookup`, has n routes (one per
// made-up provider `fanout<i>`): what recommend's cost on a capability with many routes is measured on.
// `--with-shipped` also keeps the shipped domains under their own names (first), so what is written
// for today's catalog (email.send, the start-up warm-up) still runs on it.
const { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } = require("node:fs");
const { join, resolve } = require("node:path");

const CATALOG_DIR = resolve(__dirname, "../catalog");
const SHARED_FILES = ["_providers.yaml", "_contract-defaults.yaml"];

/** The made-up word of copy k: three syllables from k's digits in base 70 (no English word, stable). */
function workspaceWord(k) {
  const onsets = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z"];
  const vowels = ["a", "e", "i", "o", "u"];
  const syllables = onsets.flatMap((c) => vowels.map((v) => c + v));
  const n = k * 7919; // spread neighbours apart
  return [n % 70, Math.floor(n / 70) % 70, Math.floor(n / 4900) % 70].map((i) => syllables[i]).join("") + "x";
}

/** The domain file `text` as copy k of `domain`. */
function copyOf(text, domain, k, word) {
  return text
    .replace(new RegExp(`(routeKey: "?)${domain}\\.`, "g"), `$1${domain}${k}.`)
    .replace(/dtoName: ([A-Za-z0-9]+)Dto/g, (_, name) => `dtoName: ${name}G${k}Dto`)
    .replace(/^(    label: )(.+)$/gm, (_, lead, label) => `${lead}${label} ${word[0].toUpperCase()}${word.slice(1)}`)
    .replace(/^(      synonyms: \[)/gm, `$1"${word}", `)
    .replace(/^(        - ")(.*)("\s*)$/gm, (line, lead, example, end) =>
      line.includes("    intent") ? line : `${lead}${example} for ${word}${end}`,
    );
}

/** The providers of the wide capability's routes: `fanout1` .. `fanout<n>`. */
const fanoutProviders = (n) => Array.from({ length: n }, (_, i) => `fanout${i + 1}`);

/** Domain `wide`: one live capability with `n` live managed routes, each of its own provider. */
function wideDomain(n) {
  const routes = fanoutProviders(n).map(
    (p, i) => `      - providerKey: ${p}
        networkKey: mpp
        routeMode: managed
        status: live
        priceCredits: ${2 + (i % 7)}
        priceSource: "made up for scale tests: $0.00${1 + (i % 7)} per call, paid per call over MPP."
        supportedFeatures: [iana_timezone]
        priors: {successRate: 0.9${i % 10}, latencyMs: ${300 + (i % 13) * 10}, quality: 0.8}
        summary: Route ${i + 1} of a capability with many equivalent routes (scale tests).`,
  );
  return `label: Wide
description: One capability with many equivalent routes, for scale tests.

capabilities:
  - key: fanout.lookup
    label: Fanout Lookup
    description: Looks up the current time in a zone through any of many equivalent providers.
    status: live
    intent:
      synonyms: ["fanout", "many routes"]
      examples:
        - "fanout lookup of the time in Lisbon"
        - "look up the zone time through any fanout provider"
        - "which fanout provider tells the time in Osaka"
    routes:
${routes.join("\n")}
    contract:
      recommend:
        status: available
        dtoName: RecommendWideFanoutLookupDto
        fields: []
        requestExample: {agentName: alpha_agent}
      execute:
        status: available
        dtoName: ExecuteWideFanoutLookupDto
        requiredFields: [timezone]
        fields:
          - {name: timezone, type: string, format: iana-timezone}
        requestExample: {timezone: Europe/Lisbon}
        responseExample: {success: true, status: succeeded, provider: fanout1, routeKey: wide.fanout.lookup.fanout1.mpp, creditsCharged: 2, data: {}}
`;
}

function generateCatalog(times, outDir, options = {}) {
  const wide = options.wide ?? 0;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const f of SHARED_FILES) cpSync(join(CATALOG_DIR, f), join(outDir, f));
  if (wide > 0) {
    const providers = readFileSync(join(outDir, "_providers.yaml"), "utf8").replace(
      /^providers:\n/m,
      `providers:\n${fanoutProviders(wide)
        .map((p, i) => `  ${p}: {label: Fanout ${i + 1}}\n`)
        .join("")}`,
    );
    writeFileSync(join(outDir, "_providers.yaml"), providers);
    writeFileSync(join(outDir, "wide.yaml"), wideDomain(wide));
  }
  const index = readFileSync(join(CATALOG_DIR, "_catalog.yaml"), "utf8");
  const domains = [...index.matchAll(/^  - ([a-z][a-z0-9]*)$/gm)].map((m) => m[1]);
  const generated = [];
  const words = new Map();
  if (options.withShipped) {
    for (const domain of domains) cpSync(join(CATALOG_DIR, `${domain}.yaml`), join(outDir, `${domain}.yaml`));
    generated.push(...domains);
  }
  for (let k = 1; k <= times; k++) {
    const word = workspaceWord(k);
    for (const domain of domains) {
      const key = `${domain}${k}`;
      writeFileSync(join(outDir, `${key}.yaml`), copyOf(readFileSync(join(CATALOG_DIR, `${domain}.yaml`), "utf8"), domain, k, word));
      generated.push(key);
      words.set(key, { word, original: domain });
    }
  }
  if (wide > 0) generated.push("wide");
  writeFileSync(
    join(outDir, "_catalog.yaml"),
    `# Generated: ${times}x the shipped catalog (npm run catalog:generate).\ndomains:\n${generated.map((d) => `  - ${d}`).join("\n")}\n`,
  );
  return { outDir, domains: generated, words };
}

module.exports = { generateCatalog, workspaceWord };

if (require.main === module) {
  const args = process.argv.slice(2);
  const wideAt = args.indexOf("--wide");
  const wide = wideAt >= 0 ? Number(args.splice(wideAt, 2)[1]) : 0;
  const shippedAt = args.indexOf("--with-shipped");
  const withShipped = shippedAt >= 0 && args.splice(shippedAt, 1).length === 1;
  const times = Number(args[0] ?? "100");
  if (!Number.isSafeInteger(times) || times < 1 || times > 1000 || !Number.isSafeInteger(wide) || wide < 0 || wide > 1000) {
    console.error("usage: npm run catalog:generate -- <times 1..1000> [outDir] [--wide <routes 1..1000>] [--with-shipped]");
    process.exit(2);
  }
  const outDir = resolve(args[1] ?? join(__dirname, "..", "generated", `x${times}`));
  const { domains } = generateCatalog(times, outDir, { wide, withShipped });
  const files = readdirSync(outDir).length;
  console.log(`wrote ${domains.length} domains (${files} files) to ${outDir}`);
}
