// What the launcher runs between "ready" and announcing the system, so the first callers after the
// announcement do not pay for cold caches, connections and code. Two parts:
// - free paths, with the announced API key: each capability's page and contract (at most
//   FREE_WARM_UP_CAPABILITIES, the catalog's first, so a large catalog does not fill the caches), and for a few
//   capabilities a recommend (never holds or charges) and an execute with an empty body where the
//   contract requires a field (refused, 400, before anything is held, charged or called);
// - paid paths, development only, on an account of its own: a few real executes on one route per
//   payment rail (direct, x402, MPP), so the ledger's hold and capture, the provider call, the
//   vendor payment and the settlement on the bus have run before a caller needs them. The launcher
//   always points the executor at the provider sandbox, so no real vendor is ever called; the
//   warm-up account is funded with /dev/init, which only development serves, and its key is new
//   each start and held by the launcher alone. The developer's own wallet, usage and rate budget
//   are never touched; the executes are on the ledger's books (reconciliation) like any other.
// Answers are not judged (the launcher's readiness checks are): a warm-up that fails only leaves
// the path cold.
import { createRequire } from "node:module";

const { randomBase62 } = createRequire(import.meta.url)("@agentic/platform");

/** The warm-up account's user: its usage, wallet and keys are apart from every caller's. */
export const WARM_UP_USER = "npm-start-warm-up";

/**
 * One route per payment rail, each a capability with a single live route (so the success it adds to
 * that route's health changes no ranking), run with its contract's own request example.
 */
const PAID_WARM_UP_ROUTES = [
  { rail: "direct", capability: "/domains/finance/capabilities/crypto-price", routeKey: "finance.crypto.price.coingecko" },
  { rail: "x402", capability: "/domains/enrichment/capabilities/company-search", routeKey: "enrichment.company.search.apollo.agentcash" },
  { rail: "mpp", capability: "/domains/geo/capabilities/places-search", routeKey: "geo.places.search.googlemaps.mpp" },
];

/** How many times the paid warm-up runs each of its routes. */
const PAID_WARM_UP_ROUNDS = 3;

/** Credits the warm-up account keeps at least: its rounds at the routes' prices (1 + 25 + 40 credits), with room to spare. */
const WARM_UP_BALANCE_CREDITS = 500;

/**
 * Capabilities whose page and contract the free warm-up reads, at most: all of today's catalog (55), a
 * bounded share of a large one. Warming runs each path once; reading every capability of a catalog
 * 100 times today's would fill the gateway's bounded caches with what no caller asked for.
 */
const FREE_WARM_UP_CAPABILITIES = 200;

/** Domains whose capability lists are read at once (each its own connection to the gateway). */
const DOMAINS_AT_ONCE = 8;

/** Capabilities whose recommend and execute the free warm-up runs with the API key: few, since they spend its burst. */
const FREE_WARM_UP_AUTHENTICATED_CAPABILITIES = 8;

/** A new key for the warm-up account, registered with the ledger at start like any AGENTIC_API_KEYS entry. */
export function newWarmUpApiKey() {
  return `aak_${randomBase62(40)}`;
}

/** Runs the warm-up against the gateway at `baseUrl`; `warmUpApiKey` only in development (the paid part). */
export async function warmUp({ baseUrl, apiKey, warmUpApiKey }) {
  await warmUpFreePaths(baseUrl, apiKey);
  if (warmUpApiKey) await warmUpPaidPaths(baseUrl, warmUpApiKey);
}

function client(baseUrl) {
  return (path, init) =>
    fetch(`${baseUrl}${path}`, init).then(
      async (r) => (r.ok ? r.json() : (await r.arrayBuffer(), undefined)),
      () => undefined,
    );
}

async function warmUpFreePaths(baseUrl, apiKey) {
  const json = client(baseUrl);
  const authed = { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: "{}" };
  const domains = (await json("/domains")) ?? [];
  const capabilities = [];
  for (let i = 0; i < domains.length && capabilities.length < FREE_WARM_UP_CAPABILITIES; i += DOMAINS_AT_ONCE) {
    const listed = await Promise.all(domains.slice(i, i + DOMAINS_AT_ONCE).map((d) => json(`/domains/${d.domainKey}/capabilities`)));
    capabilities.push(...listed.flatMap((caps) => (caps ?? []).map((c) => `/domains/${c.domainKey}/capabilities/${c.capabilityId}`)));
  }
  capabilities.splice(FREE_WARM_UP_CAPABILITIES);
  // A few at a time: the point is to run each path once, not to load the machine.
  for (let i = 0; i < capabilities.length; i += 4) {
    const batch = capabilities.slice(i, i + 4);
    const withKey = i < FREE_WARM_UP_AUTHENTICATED_CAPABILITIES;
    await Promise.all(
      batch.flatMap((path) => [
        json(path),
        json(`${path}/contract`).then((contract) =>
          withKey && contract?.execute?.requiredFields?.length ? json(`${path}/execute`, authed) : undefined,
        ),
        withKey ? json(`${path}/recommend`, authed) : undefined,
      ]),
    );
  }
}

async function warmUpPaidPaths(baseUrl, warmUpApiKey) {
  const json = client(baseUrl);
  const headers = { authorization: `Bearer ${warmUpApiKey}`, "content-type": "application/json" };
  const wallet = await json("/wallet", { headers });
  const shortBy = WARM_UP_BALANCE_CREDITS - (wallet?.balanceCredits ?? 0);
  if (shortBy > 0) {
    await json("/dev/init", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: WARM_UP_USER, balanceCredits: shortBy }),
    });
  }
  // One start's executes never replay another's (the account outlives a start in .data/ledger.sqlite).
  const startId = randomBase62(12);
  const routes = await Promise.all(
    PAID_WARM_UP_ROUTES.map(async (route) => ({
      ...route,
      example: (await json(`${route.capability}/contract`))?.execute?.requestExample,
    })),
  );
  // A few rounds, the rails side by side: code runs faster after its first few calls, and the first
  // callers arrive together, not one by one.
  for (let round = 0; round < PAID_WARM_UP_ROUNDS; round++) {
    await Promise.all(
      routes
        .filter((r) => r.example)
        .map(({ rail, capability, routeKey, example }) =>
          json(`${capability}/execute`, {
            method: "POST",
            headers: { ...headers, "idempotency-key": `warm-up-${startId}-${rail}-${round}` },
            body: JSON.stringify({ ...example, routeKey }),
          }),
        ),
    );
  }
}
