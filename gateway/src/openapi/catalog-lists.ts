// The OpenAPI parts of paged and filtered catalog lists: the query parameters (limit, cursor and the
// filters of GET /capabilities and GET /routes), the page headers (Link, X-Total-Count) and the 410 a
// cursor of an older catalog version gets. openapi.ts puts them on the list operations.
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "../catalog/paging";
import { CAPABILITY_STATUSES, NETWORK_KEYS, ROUTE_STATUSES } from "../catalog/catalog-filters";

/** A plain JSON object of the document (openapi.ts's JsonObject; not imported, as openapi.ts imports this file). */
type JsonObject = { [key: string]: unknown };

const query = (name: string, description: string, schema: JsonObject, example?: unknown): JsonObject => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
  ...(example === undefined ? {} : { example }),
});

/** components.parameters of the catalog lists, by name. */
export function catalogListParameters(): Record<string, JsonObject> {
  return {
    pageLimit: query(
      "limit",
      `Items per page, 1 to ${MAX_PAGE_LIMIT}. On the lists of a domain or capability, a list asked without limit and cursor answers whole ` +
        `(as it always did); GET /capabilities and GET /routes always page (${DEFAULT_PAGE_LIMIT} by default). Out of range answers 400 INVALID_INPUT.`,
      { type: "integer", minimum: 1, maximum: MAX_PAGE_LIMIT },
      20,
    ),
    pageCursor: query(
      "cursor",
      'Opaque: the cursor in the previous page\'s `Link: <...>; rel="next"` URL (follow that URL as it is). It is bound to the catalog version ' +
        "and to the list's filters: another list's cursor answers 400 INVALID_INPUT, and one given before the catalog changed answers 410 CURSOR_EXPIRED.",
      { type: "string", pattern: "^[A-Za-z0-9_-]{1,256}$" },
    ),
    catalogQuery: query(
      "q",
      "Words to look for in each capability's label, description, example tasks, synonyms and providers (stemmed, a typo forgiven), best match first. " +
        "1 to 200 characters.",
      { type: "string", minLength: 1, maxLength: 200 },
      "email",
    ),
    capabilityStatusFilter: query(
      "status",
      "Only capabilities with this status.",
      { type: "string", enum: [...CAPABILITY_STATUSES] },
      "live",
    ),
    routeStatusFilter: query("status", "Only routes with this status.", { type: "string", enum: [...ROUTE_STATUSES] }, "live"),
    providerFilter: query(
      "provider",
      "Only capabilities a provider supports (on /routes: only that provider's routes), by provider key.",
      { type: "string", pattern: "^[a-z0-9][a-z0-9_.-]{0,63}$" },
      "resend",
    ),
    featureFilter: query(
      "feature",
      "Only capabilities (routes) that support this feature.",
      { type: "string", pattern: "^[a-z0-9][a-z0-9_.-]{0,63}$" },
      "html",
    ),
    networkKeyFilter: query(
      "networkKey",
      "Only capabilities with a route on this network (on /routes: only routes on it).",
      { type: "string", enum: [...NETWORK_KEYS] },
      "direct",
    ),
    maxPriceCreditsFilter: query(
      "maxPriceCredits",
      "Only capabilities whose starting price (on /routes: routes whose starting cost) is at most this many credits; a capability without a price is left out.",
      { type: "number", minimum: 0 },
      5,
    ),
  };
}

/** The headers of a page (a 200 of a list asked with limit or cursor). */
export const PAGE_HEADERS: JsonObject = {
  Link: {
    description:
      'RFC 8288: `<url>; rel="next"`, the next page\'s URL (the same list, with limit and the next cursor); absent on the last page and on a list answered whole.',
    schema: { type: "string" },
  },
  "X-Total-Count": {
    description: "How many items the whole list has (with its filters), on every page; absent on a list answered whole.",
    schema: { type: "integer", minimum: 0 },
  },
};

/** The error case of the 410 a stale cursor gets. */
export const CURSOR_EXPIRED_CASE = {
  status: 410,
  error: "the catalog changed since this cursor was given",
  hint: "Start the walk again from the first page (the same URL without cursor).",
};
