// SKILL.md: what an agent reads before its first call. The service in two lines, where to start,
// the order of calls, the hard rules, exactly the live capabilities with their prices (and the
// gated ones, never to be executed), and curl lines to copy. Generated from a catalog snapshot; a
// large catalog is named in part (listed.ts): its top capabilities and largest domains.
// URLs are written with $AGENTIC_API_BASE_URL, never from the request's Host header: a cached or
// proxied copy must not carry a host a client chose (API keys would follow it).
import { listedOf, type Listed } from "./listed";
import { creditsText, startingPrice, usd } from "./prices";
import type { CatalogSnapshot, SnapshotCapability } from "./snapshot";

const AUTH = `-H "Authorization: Bearer $AGENTIC_API_KEY"`;
const JSON_BODY = `-H 'content-type: application/json'`;

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
const shellQuoted = (json: unknown) => `'${JSON.stringify(json).replaceAll("'", "'\\''")}'`;
const capabilityPath = (c: { domainKey: string; capabilityId: string }) => `/domains/${c.domainKey}/capabilities/${c.capabilityId}`;

function liveTable(live: SnapshotCapability[]): string {
  const rows = live.map((c) => {
    // A route's key past the capability's names its provider and, when it has several, the network.
    const routes = c.routes.map((r) => `${r.routeKey.slice(c.capabilityKey.length + 1)} ${r.priceCredits}`).join(", ");
    return `| \`${c.capabilityKey}\` | \`POST ${capabilityPath(c)}/execute\` | ${startingPrice(c.routes)} | ${cell(routes)} | ${cell(c.label)}: ${cell(c.description)} |`;
  });
  return ["| Capability | Execute | Price | Routes (route credits) | What it does |", "|---|---|---|---|---|", ...rows].join("\n");
}

function gatedList(gated: SnapshotCapability[]): string {
  if (gated.length === 0) return "None right now.";
  return gated
    .map((c) => `- \`${c.capabilityKey}\` (\`${capabilityPath(c)}\`): ${c.label}. Recommend only; execution is gated.`)
    .join("\n");
}

function curlLines(snapshot: CatalogSnapshot, basePath: string): string {
  const ex = snapshot.example ?? { domainKey: "{domain}", capabilityId: "{capabilityId}", executeExample: {} };
  const path = capabilityPath(ex);
  return [
    "```sh",
    `export AGENTIC_API_BASE_URL="https://<the host this file came from>${basePath}"`,
    `export AGENTIC_API_KEY="aak_..."`,
    "",
    "# 0. Which capability does my task? (no key needed)",
    `curl -X POST "$AGENTIC_API_BASE_URL/route" ${JSON_BODY} -d '{"task":"tell ana@example.com the invoice is attached"}'`,
    "# 1. Catalog (no key needed)",
    `curl "$AGENTIC_API_BASE_URL/domains"`,
    `curl "$AGENTIC_API_BASE_URL/domains/${ex.domainKey}/capabilities"`,
    "# 2. Contract: the exact request fields",
    `curl "$AGENTIC_API_BASE_URL${path}/contract"`,
    `curl "$AGENTIC_API_BASE_URL${path}/routes"`,
    "# 3. Recommend (free): the route that would run, its price, canExecuteNow, blockingRequirements",
    `curl -X POST "$AGENTIC_API_BASE_URL${path}/recommend" ${AUTH} ${JSON_BODY} -d '{"optimizationPreferences":["cost"]}'`,
    "# 4. Execute (paid): one Idempotency-Key per call, the same key on every retry of it",
    `KEY=$(uuidgen)`,
    `curl -X POST "$AGENTIC_API_BASE_URL${path}/execute" ${AUTH} ${JSON_BODY} -H "Idempotency-Key: $KEY" -d ${shellQuoted(ex.executeExample)}`,
    "# 5. Wallet and usage",
    `curl "$AGENTIC_API_BASE_URL/wallet" ${AUTH}`,
    `curl "$AGENTIC_API_BASE_URL/usage?limit=20" ${AUTH}`,
    "```",
  ].join("\n");
}

/** The heading of a catalog named in part: its largest domains, then the top live capabilities. */
function partialListing(listed: Listed, basePath: string): string {
  const { named, total } = listed.domains!;
  return [
    `## Domains (${named.length} of ${total}, most live capabilities first)`,
    "",
    ...named.map((d) => `- \`${d.domainKey}\` (${d.liveCount} live): ${d.label}. ${cell(d.description)}`),
    "",
    `Every domain: \`GET ${basePath}/domains?limit=200\` (paged: follow the \`Link\` header's next URL).`,
    "",
    `## Top live capabilities (${listed.live.length}; ${listed.omitted} more capabilities are not listed here)`,
    "",
    "Find the others with `POST /route` and your task in words, or `GET /capabilities?q=<words>&status=live` (paged).",
  ].join("\n");
}

/** SKILL.md for the API served under `basePath`. */
export function renderSkillMd(snapshot: CatalogSnapshot, basePath: string): string {
  const listed = listedOf(snapshot);
  const { live, gated } = listed;
  const cheapest = live.flatMap((c) => c.routes).sort((a, b) => a.priceCredits - b.priceCredits)[0];
  return `---
name: agentic-api
description: Capability router for AI agents. Discover capabilities (email, search, web, geo, models, ...), get a free route recommendation, then execute paid calls from a credit wallet (1000 credits = 1 USD). Use it when a task needs a third-party API and you want the router to pick the provider, price and payment rail.
---

# Agentic API

Ask for a capability (\`email.send\`, \`search.answer\`, \`geo.time.current\`), never a vendor: the router picks a
provider route, pays it over its rail, and charges your wallet in credits (**1000 credits = 1 USD**${
    cheapest ? `; the cheapest live call costs ${creditsText(cheapest.priceCredits)}, ${usd(cheapest.priceCredits)}` : ""
  }). Recommend is free; execute charges exactly the price of the route that ran.

- Base URL: \`${basePath}\` on the host you fetched this file from; call it \`$AGENTIC_API_BASE_URL\` below.
- Auth: \`Authorization: Bearer aak_...\` on recommend, execute, quote, executions, wallet and usage. Catalog and contract reads need no key.
- Reference: \`${basePath}/openapi.json\` (every endpoint, schema and error code); \`${basePath}/llms.txt\` (this, as links).
- Catalog version: \`${snapshot.catalogVersion}\` (this file is regenerated whenever the catalog changes).

## Don't know the capability? Ask \`/route\`

\`POST /route\` with \`{"task": "tell ana@example.com the invoice is attached"}\` (no key needed) answers the capabilities that do
the task, best first: \`score\` (0-1), \`why\` it matched, \`startingPriceCredits\`, \`contractPath\` and \`recommendPath\`.
\`abstained: true\` means nothing in the catalog does it: tell the user, do not force a capability. \`constraints\` is what the
words said: \`optimizationPreferences\` ("cheapest" -> cost), \`maxPriceCredits\` ("under 20 credits", "less than 5 cents" -> 50),
\`provider\` ("via Postmark") and the contract \`fields\` the words fill (\`to\`, \`symbol\`, a time zone): pass them on to recommend
and execute. \`POST /domains/{domain}/route\` (each domain's \`routeEndpoint\`) looks in one domain only.

## Discovery order

0. **Route** (free): \`POST /route\` with your task in words, when you do not know the capability.
1. **Catalog**: \`GET /domains\`, then \`GET /domains/{domain}/capabilities\`. Pick a capability whose \`status\` is \`live\`.
2. **Contract**: \`GET /domains/{domain}/capabilities/{capabilityId}/contract\`: the exact fields of recommend and execute.
3. **Recommend** (free): \`POST .../recommend\`: the route that would run, its price, \`canExecuteNow\`, \`blockingRequirements\` and \`nextActions\`.
4. **Execute** (paid): \`POST .../execute\` with the contract's execute fields as a flat JSON object and an \`Idempotency-Key\` header. To pay exactly what you told the user, add \`recommendationId\` (runs that recommendation's ranking), or \`maxPriceCredits\` (no dearer route is tried), or first \`POST .../quote\` with the same body and add its \`quoteId\` (runs at the reserved price until \`expiresAt\`). The answer's \`decision\` says which routes were tried and why the others were not.
5. **Check**: \`GET /wallet\` and \`GET /usage\`; one execution at \`GET /executions/{id}\` (the \`Execution-Id\` header of the answer).

## Hard rules

1. Read the contract before the first execute of a capability in a session, and send only its execute fields (plus \`provider\`, \`routeKey\` or \`allowFallback\` to pin a route).
2. ${listed.domains ? "Execute only capabilities whose `status` is `live`." : "Execute only the live capabilities listed below."} Never execute a gated capability (status \`recommend_only\`, or a recommend answering \`canExecuteNow: false\`): read \`blockingRequirements\`, follow \`nextActions\`, and tell the user what blocks it.
3. Recommend first unless the user pinned a provider or route, and tell the user the chosen provider and the expected credits before executing.
4. Send an \`Idempotency-Key\` (e.g. a UUID) with every execute, and reuse the same key when you retry that call after a timeout, a network error, a 5xx or \`409 IDEMPOTENCY_IN_PROGRESS\` (wait \`Retry-After\`): the call then runs and charges at most once. A new key is a new call, charged again.
5. Never repeat a 4xx unchanged: read \`code\` and \`hint\` and fix the request. \`402 CREDITS_REQUIRED\` means the wallet needs credits; \`429\` means wait \`Retry-After\`.
6. Never claim success unless execute answered 200 with \`"success": true\`; then check \`GET /usage\` for what was charged.
7. Keep the API key server-side: never in browser code, prompts shown to others, or logs.

${listed.domains ? partialListing(listed, basePath) : `## Live capabilities (${live.length})`}

Prices are the cheapest executable route's; execute charges the route that ran (see \`GET .../routes\`).

${liveTable(live)}

## Gated capabilities (recommend only: never execute)

${gatedList(gated)}

Other capabilities in the catalog are \`planned\` or \`pending\`: they cannot be executed yet.

## curl

${curlLines(snapshot, basePath)}

## Errors

Every failure is \`{"success": false, "error", "code", "hint", "traceId"}\` (plus \`executionId\` when it is about an execution):

| Status | Codes | What to do |
|---|---|---|
| 400 / 404 | INVALID_INPUT, UNKNOWN_ROUTE, CAPABILITY_NOT_FOUND, ... | Fix the request from \`hint\` and the contract. |
| 401 | AGENTIC_API_KEY_REQUIRED, INVALID_API_KEY | Send a valid \`Authorization: Bearer aak_...\`. |
| 402 | CREDITS_REQUIRED | Add credits; nothing was charged. |
| 409 | CAPABILITY_GATED, IDEMPOTENCY_CONFLICT, IDEMPOTENCY_IN_PROGRESS | Gated: do not execute. In progress: retry the same key after \`Retry-After\`. Conflict: a new key for a new body. |
| 429 | RATE_LIMITED, CONCURRENCY_LIMITED | Wait \`Retry-After\`. |
| 5xx | PROVIDER_ERROR, UNAVAILABLE, TIMEOUT, ... | Retry with the same Idempotency-Key; on TIMEOUT check \`GET /executions/{id}\` or \`GET /usage\` first. |

## SDK and CLI

The TypeScript SDK \`@agentic-api/sdk\` does the order and the retry rule for you:
\`new AgenticApiClient({ apiKey, baseUrl })\`, then \`route({ task })\` when you do not know the capability, \`catalog.domains.list()\`, \`catalog.capabilities.contract(domain, id)\`,
\`capabilities.recommend({ domain, capability, input })\`, \`capabilities.execute({ domain, capability, input })\`, \`wallet.get()\`, \`usage.list()\`.
Its CLI: \`npx agentic-api find "<task>"\`, \`npx agentic-api domains\`, \`npx agentic-api contract <domain> <id>\`, \`npx agentic-api execute <domain> <id> --json-input '{...}'\`.
`;
}
