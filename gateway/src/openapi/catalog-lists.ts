// The OpenAPI parts of paged and filtered catalog lists: the query parameters (limit, cursor and the
// filters of GET /capabilities and GET /routes, built from requests/catalog-lists.ts), the page headers
// (Link, X-Total-Count) and the 410 a cursor of an older catalog version gets. openapi.ts puts them on
// the list operations.
import { capabilitiesQuery, pageQuery, routesQuery } from "../routes/requests/catalog-lists";
import { parameterOf } from "./from-zod";

/** A plain JSON object of the document (openapi.ts's JsonObject; not imported, as openapi.ts imports this file). */
type JsonObject = { [key: string]: unknown };

/** components.parameters of the catalog lists, by name. */
export function catalogListParameters(): Record<string, JsonObject> {
  const { shape } = capabilitiesQuery;
  return {
    pageLimit: parameterOf("limit", "query", pageQuery.shape.limit),
    pageCursor: parameterOf("cursor", "query", pageQuery.shape.cursor),
    catalogQuery: parameterOf("q", "query", shape.q),
    capabilityStatusFilter: parameterOf("status", "query", shape.status),
    routeStatusFilter: parameterOf("status", "query", routesQuery.shape.status),
    providerFilter: parameterOf("provider", "query", shape.provider),
    featureFilter: parameterOf("feature", "query", shape.feature),
    networkKeyFilter: parameterOf("networkKey", "query", shape.networkKey),
    maxPriceCreditsFilter: parameterOf("maxPriceCredits", "query", shape.maxPriceCredits),
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
