// llms.txt (the llmstxt.org layout: a title, a one-line summary, then lists of links): where an
// agent finds the instructions, the OpenAPI document and the contract of each live capability.
// Generated from a catalog snapshot; links are server-relative, like the catalog's own paths. A
// large catalog is named in part (listed.ts): its top capabilities, its largest domains, and how to search the rest.
import { listedOf } from "./listed";
import { startingPrice } from "./prices";
import type { CatalogSnapshot } from "./snapshot";

/** llms.txt for the API served under `basePath`. */
export function renderLlmsTxt(snapshot: CatalogSnapshot, basePath: string): string {
  const { live, gated, omitted, domains } = listedOf(snapshot);
  const contract = (c: { domainKey: string; capabilityId: string }) =>
    `${basePath}/domains/${c.domainKey}/capabilities/${c.capabilityId}/contract`;
  const lines = [
    "# Agentic API",
    "",
    "> A capability router for AI agents: ask /route which capability does your task, read the catalog and a capability's contract, get a free recommendation, then execute paid calls from a credit wallet (1000 credits = 1 USD).",
    "",
    `Base path \`${basePath}\` on this host. Catalog and contract reads need no key; recommend, execute, executions, wallet and usage need \`Authorization: Bearer aak_...\`. ` +
      "Order: catalog, contract, recommend, execute, then wallet and usage. Reuse the Idempotency-Key of an execute when you retry it; never execute a gated capability; read blockingRequirements.",
    "",
    "Don't know the capability? Ask `/route`: `POST " +
      basePath +
      '/route` with `{"task": "<what you want done, in words>"}` (no key) answers the capabilities that do it, best first, `abstained` when none does, and the constraints your words state.',
    "",
    "## Docs",
    "",
    `- [SKILL.md](${basePath}/SKILL.md): discovery order, hard rules, the live capabilities with prices, curl lines`,
    `- [OpenAPI document](${basePath}/openapi.json): every endpoint, schema and error code`,
    "",
    ...(domains
      ? [
          `## Domains (${domains.named.length} of ${domains.total}, most live capabilities first)`,
          "",
          ...domains.named.map((d) => `- [${d.domainKey}](${basePath}/domains/${d.domainKey}/capabilities): ${d.label}. ${d.description}`),
          `- [Every domain](${basePath}/domains?limit=200): paged, the next page in the Link header`,
          "",
          `## Top live capabilities (${live.length}; ${omitted} more capabilities are not listed here)`,
          "",
          `Search the rest: \`POST ${basePath}/route\` with your task, or [GET /capabilities?q=<words>](${basePath}/capabilities?q=email&status=live).`,
          "",
        ]
      : [`## Live capabilities (${live.length})`, ""]),
    ...live.map((c) => `- [${c.capabilityKey}](${contract(c)}): ${c.label}, ${startingPrice(c.routes)}. ${c.description}`),
    "",
    "## Optional",
    "",
    `- [Domains](${basePath}/domains): the whole catalog, planned capabilities included`,
    ...gated.map((c) => `- [${c.capabilityKey}](${contract(c)}): ${c.label}. Recommend only: execution is gated, never execute it.`),
  ];
  return `${lines.join("\n")}\n`;
}
