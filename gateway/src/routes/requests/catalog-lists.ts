// The queries of the catalog lists, declared once: `limit` and `cursor` of every paged list, and the
// filters of GET /capabilities and GET /routes. The lists parse with these objects (catalog/paging.ts,
// catalog/catalog-filters.ts) and the document's parameters are built from them (openapi/catalog-lists.ts).
import { z } from "zod";
import { hinted } from "../../http/request-schema";
import { wholeNumberInQuery } from "./values";

export const MAX_PAGE_LIMIT = 200;
/** Items per page when a cursor is sent without a limit, and on the lists that always page. */
export const DEFAULT_PAGE_LIMIT = 50;
export const CAPABILITY_STATUSES = ["live", "recommend_only", "planned", "pending"] as const;
/** A domain's and a route's status (a capability has more: CAPABILITY_STATUSES). */
export const RECORD_STATUSES = ["live", "pending"] as const;
export const NETWORK_KEYS = ["direct", "agentcash", "mpp"] as const;
const MAX_Q_LENGTH = 200;
const CATALOG_KEY = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

const notALimit = `must be an integer from 1 to ${MAX_PAGE_LIMIT}`;
const limit = hinted(
  wholeNumberInQuery(1, MAX_PAGE_LIMIT, notALimit)
    .optional()
    .meta({
      description:
        `Items per page, 1 to ${MAX_PAGE_LIMIT}. On the lists of a domain or capability, a list asked without limit and cursor answers whole ` +
        `(as it always did); GET /capabilities and GET /routes always page (${DEFAULT_PAGE_LIMIT} by default). Out of range answers 400 INVALID_INPUT.`,
      example: 20,
    }),
  `Send ?limit= between 1 and ${MAX_PAGE_LIMIT}.`,
);

/** What the format of a cursor allows; whether it is one of this list's is paging's to say. */
const cursor = hinted(
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,256}$/, { error: "is not a cursor of this list" })
    .optional()
    .meta({
      description:
        'Opaque: the cursor in the previous page\'s `Link: <...>; rel="next"` URL (follow that URL as it is). It is bound to the catalog version ' +
        "and to the list's filters: another list's cursor answers 400 INVALID_INPUT, and one given before the catalog changed answers 410 CURSOR_EXPIRED.",
    }),
  'Follow the Link rel="next" URL of the previous page as it is, or leave cursor out to start again.',
);

/** `limit` and `cursor`: what every paged list reads (a domain's lists ignore other parameters). */
export const pageQuery = z.object({ limit, cursor });

const q = hinted(
  z
    .string()
    .trim()
    .min(1, { error: `must be 1 to ${MAX_Q_LENGTH} characters` })
    .max(MAX_Q_LENGTH, { error: `must be 1 to ${MAX_Q_LENGTH} characters` })
    .optional()
    .meta({
      description:
        "Words to look for in each capability's label, description, example tasks, synonyms and providers (stemmed, a typo forgiven), best match first. " +
        `1 to ${MAX_Q_LENGTH} characters.`,
      example: "email",
    }),
  "Send a few words, e.g. ?q=email.",
);

const status = <S extends readonly [string, ...string[]]>(statuses: S, description: string) =>
  hinted(
    z
      .enum(statuses, { error: `must be one of ${statuses.join(", ")}` })
      .optional()
      .meta({ description, example: "live" }),
    "Send one status.",
  );

const catalogKey = (name: "provider" | "feature", description: string, example: string) =>
  hinted(
    z
      .string()
      .regex(CATALOG_KEY, { error: "must be a key as the catalog writes it, e.g. resend" })
      .optional()
      .meta({ description, example }),
    `Send ?${name}= in lower case.`,
  );

const notAPrice = "must be a number of credits, 0 or more";
const maxPriceCredits = hinted(
  z
    .string({ error: notAPrice })
    .regex(/^\d+(\.\d+)?$/, { error: notAPrice })
    .transform(Number)
    .pipe(z.number({ error: notAPrice }).min(0))
    .optional()
    .meta({
      description:
        "Only capabilities whose starting price (on /routes: routes whose starting cost) is at most this many credits; a capability without a price is left out.",
      example: 5,
    }),
  "Send e.g. ?maxPriceCredits=5.",
);

const filters = {
  q,
  provider: catalogKey(
    "provider",
    "Only capabilities a provider supports (on /routes: only that provider's routes), by provider key.",
    "resend",
  ),
  feature: catalogKey("feature", "Only capabilities (routes) that support this feature.", "html"),
  networkKey: hinted(
    z
      .enum(NETWORK_KEYS, { error: `must be one of ${NETWORK_KEYS.join(", ")}` })
      .optional()
      .meta({ description: "Only capabilities with a route on this network (on /routes: only routes on it).", example: "direct" }),
    "Send one networkKey.",
  ),
  maxPriceCredits,
};

/** GET /capabilities' query: the filters, then paging; any other parameter is a 400. */
export const capabilitiesQuery = z.object({
  q: filters.q,
  status: status(CAPABILITY_STATUSES, "Only capabilities with this status."),
  provider: filters.provider,
  feature: filters.feature,
  networkKey: filters.networkKey,
  maxPriceCredits: filters.maxPriceCredits,
  limit,
  cursor,
});

/** GET /routes' query: as GET /capabilities', with the statuses of a route. */
export const routesQuery = capabilitiesQuery.extend({ status: status(RECORD_STATUSES, "Only routes with this status.") });
