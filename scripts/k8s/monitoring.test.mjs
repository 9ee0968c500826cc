// Tests of the monitoring component (deploy/k8s/components/monitoring): every alert has a runbook
// page that says what it means, how to confirm it and what to do; every alert is fired by a
// promtool unit test (npm run k8s:rules runs them); the rules and the dashboard query only series
// the code declares; every rule file ships. Run: node --test scripts/k8s/*.test.mjs
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import { MONITORING_DIR, loadPrometheusRules, ruleTestFiles } from "./promtool.mjs";
import { runbookPageOf, runbookUrlProblem } from "./lib/runbooks.mjs";
import { EXPORTED_ELSEWHERE } from "./lib/exported-elsewhere.mjs";
import { JOURNEYS, SLO_RULES_FILE, sloRulesYaml } from "./slo-rules.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const rules = loadPrometheusRules();
const alerts = rules.flatMap(({ rule }) => rule.spec.groups.flatMap((g) => g.rules.filter((r) => r.alert)));
const recorded = new Set(
  rules.flatMap(({ rule }) => rule.spec.groups.flatMap((g) => g.rules.filter((r) => r.record).map((r) => r.record))),
);
const dashboard = JSON.parse(readFileSync(join(MONITORING_DIR, "dashboards/agentic-overview.json"), "utf8"));

/** Files under `dir` (recursively) whose name passes `keep`. */
function filesUnder(dir, keep) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" || name === "dist" ? [] : filesUnder(path, keep);
    return keep(name) ? [path] : [];
  });
}

/** Every metric the services declare: names given to prom-client, and the series a histogram adds. */
function declaredMetrics() {
  const sources = [
    ...["gateway/src", "packages/platform/src"].map((d) => join(REPO_ROOT, d)),
    ...readdirSync(join(REPO_ROOT, "services")).map((s) => join(REPO_ROOT, "services", s, "src")),
  ].flatMap((dir) => filesUnder(dir, (f) => f.endsWith(".ts") && !f.endsWith(".test.ts")));
  const names = new Set();
  for (const file of sources) {
    for (const m of readFileSync(file, "utf8").matchAll(/(?:name:|singleton\(|counter\()\s*"([a-z_][a-z0-9_]*)"/g)) {
      for (const suffix of ["", "_bucket", "_count", "_sum"]) names.add(m[1] + suffix);
    }
  }
  return names;
}

/** The series names a PromQL expression reads (labels, functions, ranges and keywords taken out). */
export function seriesOf(expr) {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, "")
    .replace(/\{[^}]*\}/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/(?<![\w:])\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi, "")
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, "");
  const keywords = new Set(["and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring", "inf", "nan"]);
  return [...bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)]
    .filter(([, name, call]) => !call && !keywords.has(name.toLowerCase()))
    .map(([, name]) => name);
}

describe("alerts", () => {
  test("there are alerts for each concern of the issue", () => {
    const names = alerts.map((a) => a.alert);
    for (const expected of [
      "AgenticAvailabilityBudgetBurnFast",
      "AgenticLatencyBudgetBurnFast",
      "AgenticVendorFailing",
      "AgenticSettlementLag",
      "AgenticSettlementsDeadLettered",
      "AgenticCapturesForUnknownHolds",
      "AgenticExecutionsIndeterminate",
      "AgenticNatsConsumerLag",
      "AgenticLedgerStoreErrors",
      "AgenticPlatformLosses",
      "AgenticStreamFilling",
    ]) {
      assert.ok(names.includes(expected), `${expected} is missing`);
    }
    // One rule per journey shares an SLO alert's name; any other name is used once.
    const keys = alerts.map((a) => `${a.alert} ${a.labels?.journey ?? ""}`);
    assert.equal(new Set(keys).size, keys.length, "alert names are unique (per journey for the SLO alerts)");
  });

  test("every journey has its availability and latency alerts, fast and slow, from the committed table", () => {
    for (const { journey } of JOURNEYS)
      for (const name of ["Availability", "Latency"].flatMap((s) => [`Agentic${s}BudgetBurnFast`, `Agentic${s}BudgetBurnSlow`]))
        assert.ok(
          alerts.some((a) => a.alert === name && a.labels.journey === journey),
          `${name} for ${journey}`,
        );
    assert.equal(readFileSync(SLO_RULES_FILE, "utf8"), sloRulesYaml(), "rules/slo.yaml is not what npm run k8s:slo writes");
  });

  test("each links its runbook page, which says what it means, how to confirm it and what to do", () => {
    const index = readFileSync(join(REPO_ROOT, "docs/runbooks/README.md"), "utf8");
    for (const alert of alerts) {
      assert.equal(runbookUrlProblem(alert), undefined, `${alert.alert}: ${runbookUrlProblem(alert)}`);
      const pagePath = runbookPageOf(alert);
      const page = readFileSync(join(REPO_ROOT, pagePath), "utf8");
      const title = alert.labels?.journey ? `^# .+ \\(journey \`${alert.labels.journey}\`\\)\\n` : `^# ${alert.alert}\\n`;
      assert.match(page, new RegExp(title), alert.alert);
      if (alert.labels?.journey) assert.ok(page.includes(alert.alert.replace(/(Fast|Slow)$/, "")), `${pagePath} names ${alert.alert}`);
      for (const section of ["## What it means", "## How to confirm", "## What to do"])
        assert.ok(page.includes(section), `${alert.alert}: ${section}`);
      assert.ok(index.includes(`(${pagePath.replace("docs/runbooks/", "")})`), `${pagePath} in the index`);
    }
    const pages = filesUnder(join(REPO_ROOT, "docs/runbooks"), (f) => f.endsWith(".md"))
      .map((f) => f.slice(join(REPO_ROOT, "/").length))
      .filter((f) => f !== "docs/runbooks/README.md");
    assert.deepEqual(pages.sort(), [...new Set(alerts.map(runbookPageOf))].sort(), "one page per alert (or journey), no orphan page");
  });

  test("each is fired by a promtool unit test", () => {
    const tests = ruleTestFiles().map((file) => YAML.parse(readFileSync(file, "utf8")));
    const fired = new Set(
      tests.flatMap((t) =>
        t.tests.flatMap((c) => (c.alert_rule_test ?? []).filter((a) => (a.exp_alerts ?? []).length > 0).map((a) => a.alertname)),
      ),
    );
    for (const alert of alerts) assert.ok(fired.has(alert.alert), `no unit test fires ${alert.alert}`);
    // And the tests read the rule files the PrometheusRules become (scripts/k8s/promtool.mjs).
    const staged = new Set(rules.map(({ rule }) => `${rule.metadata.name}.rules.yaml`));
    for (const t of tests) for (const file of t.rule_files) assert.ok(staged.has(file), `rule_files: ${file}`);
  });

  test("the rules and the dashboard read only series the code declares (or the rules record)", () => {
    const declared = declaredMetrics();
    // prom-client's defaults, and what the exporters beside NATS and the collector's own telemetry export.
    const known = (name) => declared.has(name) || recorded.has(name) || /^(nodejs|process)_/.test(name) || EXPORTED_ELSEWHERE.has(name);
    const exprs = [
      ...rules.flatMap(({ rule }) => rule.spec.groups.flatMap((g) => g.rules.map((r) => [r.alert ?? r.record, r.expr]))),
      ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => [`panel "${p.title}"`, t.expr])),
    ];
    for (const [where, expr] of exprs) {
      for (const series of seriesOf(expr)) assert.ok(known(series), `${where} reads ${series}, which no service declares`);
    }
  });

  test("every rule file ships in the component", () => {
    const kustomization = YAML.parse(readFileSync(join(MONITORING_DIR, "kustomization.yaml"), "utf8"));
    assert.deepEqual(kustomization.resources.filter((r) => r.startsWith("rules/")).sort(), rules.map((r) => r.file).sort());
  });
});

describe("seriesOf", () => {
  test("finds series, not labels, functions, ranges or keywords", () => {
    assert.deepEqual(
      seriesOf(
        'sum by (reason) (increase(ledger_platform_losses_total{reason=~"paid.*"}[1h])) * 3600 / 1e6 > 0 and on (namespace) up == 1',
      ),
      ["ledger_platform_losses_total", "up"],
    );
  });
});

describe("the dashboard", () => {
  test("has a uid, unique panel ids, and a query in every panel but rows", () => {
    assert.equal(dashboard.uid, "agentic-overview");
    const ids = dashboard.panels.map((p) => p.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const panel of dashboard.panels.filter((p) => p.type !== "row"))
      assert.ok(panel.targets?.length > 0 && panel.targets.every((t) => t.expr), panel.title);
  });

  test("shows the RED metrics and the money flow", () => {
    const all = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)).join("\n");
    for (const series of [
      "http_server_request_duration_seconds_count",
      "rpc_server_duration_seconds_bucket",
      "executor_holds_placed_total",
      "ledger_credits_charged_total",
      "ledger_outgoing_payments_micro_usd_total",
      "ledger_platform_losses_micro_usd_total",
      "nats_stream_bytes",
    ]) {
      assert.ok(all.includes(series), series);
    }
  });
});
