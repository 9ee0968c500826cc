// Where an alert's runbook is, and what its runbook_url must say. Alert rules link runbooks by
// absolute URL (Alertmanager and Grafana show it as a link): `<repository web address>/docs/runbooks/
// <page>`. The components commit DEFAULT_REPOSITORY_WEB_URL; an overlay sets its own address in its
// monitoring-settings ConfigMap (`repositoryWebUrl`), which a kustomize replacement writes over
// everything before /docs/runbooks/ (deploy/k8s/components/monitoring/README.md).

/** The address the committed rules carry: a repository's files as its web host serves them at a ref. */
export const DEFAULT_REPOSITORY_WEB_URL = "https://git.example.com/agentic/agentic-api/-/blob/main";

/** What separates the repository's address from the page in every runbook_url. */
export const RUNBOOK_PATH = "/docs/runbooks/";

/**
 * The page an alert rule must link, relative to the repository: one page per journey for the SLO
 * alerts (label `journey`: availability and latency, fast and slow, on one page), else one per alert.
 */
export function runbookPageOf(rule) {
  const journey = rule.labels?.journey;
  return journey ? `docs/runbooks/journeys/${journey}.md` : `docs/runbooks/${rule.alert}.md`;
}

/** The problem with a rule's runbook_url, or undefined when it is an absolute https URL of its page. */
export function runbookUrlProblem(rule) {
  const url = rule.annotations?.runbook_url;
  const page = runbookPageOf(rule);
  if (typeof url !== "string" || !/^https:\/\/[^/]+\//.test(url))
    return `annotations.runbook_url must be an absolute https URL ending in /${page}`;
  const at = url.indexOf(RUNBOOK_PATH);
  if (at < 0 || `docs/runbooks/${url.slice(at + RUNBOOK_PATH.length)}` !== page)
    return `annotations.runbook_url must end in /${page} (the repository's web address, then the page)`;
  return undefined;
}

/** The runbook URL of `page` (relative to the repository) under the committed default address. */
export function defaultRunbookUrl(page) {
  return `${DEFAULT_REPOSITORY_WEB_URL}/${page}`;
}
