#!/usr/bin/env node
// The SLOs of every user journey, as code: JOURNEYS below is the one table (what the journey is in
// the gateway's http_server_request_duration_seconds, its availability and latency objectives), and
// this script writes deploy/k8s/components/monitoring/rules/slo.yaml from it: per journey and
// window the recorded ratios, the 30-day ratios the dashboard's SLO panels read, and the
// multiwindow, multi-burn-rate alerts (Google SRE workbook, "Alerting on SLOs"). Writing 170 rules
// by hand would let one journey's window drift from another's; scripts/k8s/monitoring.test.mjs
// fails when the committed file is not what this script writes.
//
//   node scripts/k8s/slo-rules.mjs          # npm run k8s:slo: rewrite rules/slo.yaml
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import { defaultRunbookUrl } from "./lib/runbooks.mjs";

const HERE = resolve(fileURLToPath(import.meta.url), "..");
export const SLO_RULES_FILE = join(HERE, "../../deploy/k8s/components/monitoring/rules/slo.yaml");

/**
 * A vendor's failure (every route tried failed, or timed out) is a routing event, alerted per
 * provider (AgenticVendorFailing), not a failure of ours: these 5xx codes (the histogram's
 * error_type) are kept out of the availability SLIs.
 */
export const VENDOR_ERROR_TYPES = ["PROVIDER_ERROR", "PROVIDER_TIMEOUT"];

/**
 * The user journeys. `selector`: the gateway's requests that make the journey; `availability`: the
 * share answered without a 5xx of ours; `latency`: the share answered within `le` seconds (a bucket
 * boundary of LATENCY_BUCKETS_SECONDS; `title` and `noun` name it in alerts, packages/platform/src/metrics/rpc-metrics.ts).
 */
export const JOURNEYS = [
  {
    journey: "catalog",
    title: "Catalog reads",
    noun: "catalog reads",
    path: "GET <base>/domains/... (domains, capabilities, contracts, routes)",
    selector: 'http_request_method="GET", http_route=~".+/domains(/.*)?"',
    availability: 0.999,
    latency: { le: 0.5, objective: 0.99 },
  },
  {
    journey: "recommend",
    title: "Recommend",
    noun: "recommends",
    path: "POST <base>/domains/{d}/capabilities/{id}/recommend",
    selector: 'http_request_method="POST", http_route=~".+/recommend"',
    availability: 0.995,
    latency: { le: 1, objective: 0.99 },
  },
  {
    journey: "execute",
    title: "Execute",
    noun: "executes",
    path: "POST <base>/domains/{d}/capabilities/{id}/execute",
    selector: 'http_request_method="POST", http_route=~".+/execute"',
    availability: 0.995,
    latency: { le: 10, objective: 0.99 },
  },
  {
    journey: "wallet",
    title: "Wallet and usage",
    noun: "wallet, usage and execution reads",
    path: "GET <base>/wallet, GET <base>/usage, GET <base>/executions/{id}",
    selector: 'http_request_method="GET", http_route=~".+/(wallet|usage|executions/:executionId)"',
    availability: 0.999,
    latency: { le: 0.5, objective: 0.99 },
  },
  {
    journey: "quote",
    title: "Quotes",
    noun: "quotes",
    path: "POST <base>/domains/{d}/capabilities/{id}/quote",
    selector: 'http_request_method="POST", http_route=~".+/quote"',
    availability: 0.995,
    latency: { le: 1, objective: 0.99 },
  },
  {
    journey: "top-up",
    title: "Top-ups",
    noun: "top-ups",
    path: "POST <base>/wallet/top-up (x402: the facilitator verifies and settles on chain)",
    selector: 'http_request_method="POST", http_route=~".+/wallet/top-up"',
    availability: 0.995,
    latency: { le: 30, objective: 0.99 },
  },
];

/** The alerting windows, and the 30-day period of every SLO. */
const WINDOWS = ["5m", "30m", "1h", "2h", "6h", "1d", "3d"];

/** Page: 2 % of the month's budget in 1 h, or 5 % in 6 h; ticket: 10 % in 1 d, or in 3 d. Short window = 1/12 of the long. */
const BURNS = {
  Fast: {
    severity: "critical",
    pairs: [
      ["1h", "5m", 14.4],
      ["6h", "30m", 6],
    ],
    for: "2m",
    pace: "fast",
  },
  Slow: {
    severity: "warning",
    pairs: [
      ["1d", "2h", 3],
      ["3d", "6h", 1],
    ],
    for: "15m",
    pace: "faster than it lasts",
  },
};

const METRIC = "http_server_request_duration_seconds";

/**
 * The bucket matcher of `le` seconds. Prometheus 3 stores classic histograms' `le` as floats
 * ("10" becomes "10.0"), so `le="10"` would silently match nothing there: match both spellings.
 */
function leMatcher(le) {
  const text = String(le).replace(".", "\\\\.");
  return Number.isInteger(le) ? `le=~"${text}(\\\\.0)?"` : `le="${le}"`;
}

/** Rounds away float noise in thresholds (14.4 * 0.001 = 0.014400000000000001). */
const num = (x) => Number(x.toPrecision(12));

function budgetOf(objective) {
  return num(1 - objective);
}

function recordingRules(j) {
  const all = `${METRIC}_count{job="gateway", ${j.selector}}`;
  const bad = `${METRIC}_count{job="gateway", ${j.selector}, http_response_status_code=~"5..", error_type!~"${VENDOR_ERROR_TYPES.join("|")}"}`;
  const fast = `${METRIC}_bucket{job="gateway", ${j.selector}, ${leMatcher(j.latency.le)}}`;
  const labels = { journey: j.journey };
  const rules = [];
  for (const w of WINDOWS) {
    rules.push({
      record: `agentic:journey_errors:ratio_rate${w}`,
      expr: `sum by (namespace) (rate(${bad}[${w}]))\n/\nsum by (namespace) (rate(${all}[${w}]))\n`,
      labels,
    });
  }
  for (const w of WINDOWS) {
    rules.push({
      record: `agentic:journey_slow:ratio_rate${w}`,
      expr: `1 - (\n  sum by (namespace) (rate(${fast}[${w}]))\n  /\n  sum by (namespace) (rate(${all}[${w}]))\n)\n`,
      labels,
    });
  }
  // What the 30-day ratios are summed from: requests, 5xx of ours, and answers within the target, per second over 5 m.
  rules.push(
    { record: "agentic:journey_requests:rate5m", expr: `sum by (namespace) (rate(${all}[5m]))\n`, labels },
    { record: "agentic:journey_errors:rate5m", expr: `sum by (namespace) (rate(${bad}[5m]))\n`, labels },
    { record: "agentic:journey_fast:rate5m", expr: `sum by (namespace) (rate(${fast}[5m]))\n`, labels },
    { record: "agentic:journey_availability:objective", expr: `vector(${j.availability})\n`, labels },
    { record: "agentic:journey_latency:objective", expr: `vector(${j.latency.objective})\n`, labels },
  );
  return rules;
}

/** The 30-day ratios, traffic-weighted (sums of the 5 m rates, not an average of ratios). */
function periodRules() {
  return [
    {
      record: "agentic:journey_errors:ratio_rate30d",
      expr: "sum_over_time(agentic:journey_errors:rate5m[30d])\n/ on (namespace, journey)\nsum_over_time(agentic:journey_requests:rate5m[30d])\n",
    },
    {
      record: "agentic:journey_slow:ratio_rate30d",
      expr: "1 - (\n  sum_over_time(agentic:journey_fast:rate5m[30d])\n  / on (namespace, journey)\n  sum_over_time(agentic:journey_requests:rate5m[30d])\n)\n",
    },
  ];
}

function alertRules(j) {
  const rules = [];
  for (const [sli, ratio, objective, what] of [
    ["Availability", "journey_errors", j.availability, "answered 5xx (vendors' failures not counted)"],
    ["Latency", "journey_slow", j.latency.objective, `took over ${j.latency.le} s`],
  ]) {
    const budget = budgetOf(objective);
    const budgetText = `${num(budget * 100)} %`;
    for (const [speed, burn] of Object.entries(BURNS)) {
      const sel = `{journey="${j.journey}"}`;
      const expr = burn.pairs
        .map(([long, short, factor]) => {
          const t = factor === 1 ? `${budget}` : `(${factor} * ${budget})`;
          return `(\n  agentic:${ratio}:ratio_rate${long}${sel} > ${t} and agentic:${ratio}:ratio_rate${short}${sel} > ${t}\n)`;
        })
        .join(" or ");
      rules.push({
        alert: `Agentic${sli}BudgetBurn${speed}`,
        expr: `${expr}\n`,
        for: burn.for,
        labels: { severity: burn.severity, journey: j.journey, slo: `${j.journey}-${sli.toLowerCase()}` },
        annotations: {
          summary: `${j.title} ${what}, burning the 30-day error budget ${burn.pace}`,
          description: `{{ $value | humanizePercentage }} of ${j.noun} in {{ $labels.namespace }} ${what} (budget ${budgetText} over 30 days)${speed === "Fast" ? ": at this rate the month's budget is gone within days." : ", over hours to days."}`,
          runbook_url: defaultRunbookUrl(`docs/runbooks/journeys/${j.journey}.md`),
        },
      });
    }
  }
  return rules;
}

const HEADER = `# GENERATED by scripts/k8s/slo-rules.mjs from its JOURNEYS table (npm run k8s:slo); edit the table, not this file.
# SLOs of every user journey as the gateway answers it (http_server_request_duration_seconds), alerted
# with multiwindow, multi-burn-rate rules (Google SRE workbook, "Alerting on SLOs"): page (critical)
# when the budget burns 14.4x over 1 h and 5 m or 6x over 6 h and 30 m; ticket (warning) at 3x over
# 1 d and 2 h, or 1x over 3 d and 6 h. Each alert carries the journey's label and links its page
# docs/runbooks/journeys/<journey>.md. A vendor's failure (error_type PROVIDER_ERROR, PROVIDER_TIMEOUT)
# is not ours: it is left out of availability and alerted per provider (rules/vendors.yaml).
# The 30-day ratios need 30 days of the recorded 5 m rates: Prometheus keeps at least 31 days
# (components/monitoring/README.md, "Retention").
`;

/** The PrometheusRule of every journey's SLOs, as YAML text. */
export function sloRulesYaml() {
  const rule = {
    apiVersion: "monitoring.coreos.com/v1",
    kind: "PrometheusRule",
    metadata: { name: "agentic-slo", labels: { "app.kubernetes.io/part-of": "agentic", release: "kube-prometheus-stack" } },
    spec: {
      groups: [
        { name: "agentic-slo.recording", rules: JOURNEYS.flatMap(recordingRules) },
        // Every 5 minutes is enough for a 30-day ratio, and reads 30 days of samples 12 times an hour, not 60.
        { name: "agentic-slo.period", interval: "5m", rules: periodRules() },
        { name: "agentic-slo.alerts", rules: JOURNEYS.flatMap(alertRules) },
      ],
    },
  };
  return HEADER + YAML.stringify(rule, { lineWidth: 0, aliasDuplicateObjects: false });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(SLO_RULES_FILE, sloRulesYaml());
  console.log(`k8s slo: wrote ${SLO_RULES_FILE}`);
}
