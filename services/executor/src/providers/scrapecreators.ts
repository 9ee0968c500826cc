// ScrapeCreators (social.profile.lookup, social.content.search, social.comments.list): one GET endpoint per
// network and capability with `x-api-key` on direct routes, e.g. /v1/tiktok/profile?handle=,
// /v1/youtube/search?query=&continuationToken=, /v1/tiktok/video/comments?url=&cursor=. Each answers in its
// network's own shape (read by scrapecreators-shapes.ts); errors {success: false, message} (401 key,
// 402 credits, 404 unknown account). Networks without an endpoint here are refused as invalid_input.
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import type { CapabilityInput, ProviderContext } from "../domain/provider-port";
import { COMMENT_READERS, PROFILE_READERS, SEARCH_READERS } from "./scrapecreators-shapes";
import { invalidResponse, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";

const KEY = "scrapecreators";

const PROFILE_PATHS: Readonly<Record<string, string>> = {
  tiktok: "/v1/tiktok/profile",
  instagram: "/v1/instagram/profile",
  youtube: "/v1/youtube/channel",
  x: "/v1/twitter/profile",
  threads: "/v1/threads/profile",
};
/** Search endpoint and the name its cursor goes by. */
const SEARCH_PATHS: Readonly<Record<string, [string, string]>> = {
  tiktok: ["/v1/tiktok/search/keyword", "cursor"],
  youtube: ["/v1/youtube/search", "continuationToken"],
};
/** Comments endpoint and its cursor name, per network of the post URL. */
const COMMENT_PATHS: Readonly<Record<string, [string, string]>> = {
  tiktok: ["/v1/tiktok/video/comments", "cursor"],
  youtube: ["/v1/youtube/video/comments", "continuationToken"],
};
const HOSTS: readonly [RegExp, string][] = [
  [/(^|\.)tiktok\.com$/, "tiktok"],
  [/(^|\.)(youtube\.com|youtu\.be)$/, "youtube"],
];

function refuse(field: string, message: string): never {
  throw inputRefusal(KEY, message, field);
}

/** The input's platform, when this capability has an endpoint for it. */
function platform(input: CapabilityInput, endpoints: Readonly<Record<string, unknown>>): string {
  const platform = new InputReader(KEY, input).string("platform", true);
  if (!(platform in endpoints)) refuse("platform", `platform must be one of ${Object.keys(endpoints).join(", ")} on this route`);
  return platform;
}

/** The handle given, else the first segment of the profile URL (`https://www.tiktok.com/@ada` → `ada`). */
function handle(input: CapabilityInput): string {
  const read = new InputReader(KEY, input);
  const given = read.string("handle");
  if (given) return given.trim().replace(/^@/, "");
  const url = read.string("url");
  if (!url) return refuse("handle", "give `handle` or `url`");
  let segment: string | undefined;
  try {
    segment = new URL(url).pathname.split("/").filter(Boolean)[0];
  } catch {
    return refuse("url", "`url` is not a valid URL");
  }
  const handle = segment?.replace(/^@/, "");
  return handle ? decodeURIComponent(handle) : refuse("url", "`url` does not name an account; give `handle`");
}

/** The network of a post URL, by its host. */
function postNetwork(input: CapabilityInput): string {
  const url = new InputReader(KEY, input).string("url", true);
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return refuse("url", "`url` is not a valid URL");
  }
  const match = HOSTS.find(([pattern]) => pattern.test(host));
  return match ? match[1] : refuse("url", "comments are listed for TikTok and YouTube post URLs on this route");
}

/** A GET of one endpoint, with `x-api-key` on direct routes. */
function get(ctx: ProviderContext, path: string, params: URLSearchParams): ProviderHttpRequest {
  return {
    method: "GET",
    url: `${ctx.baseUrl}${path}?${params.toString()}`,
    headers: ourKeyAs(ctx, "x-api-key"),
  };
}

/** A page request: the endpoint's own parameter, then the input's cursor under the endpoint's name for it. */
function pageRequest(ctx: ProviderContext, read: InputReader, [path, cursorName]: [string, string], param: "query" | "url") {
  const params = new URLSearchParams({ [param]: read.string(param, true) });
  const cursor = read.string("cursor");
  if (cursor) params.set(cursorName, cursor);
  return get(ctx, path, params);
}

function checkStatus(res: RailResponse): void {
  if (res.status !== 200) throw vendorError(KEY, res, { message: stringField(res.body, "message") ?? stringField(res.body, "error") });
}

export const scrapecreatorsProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.scrapecreators.com" },
  capabilities: {
    "social.profile.lookup": {
      request(input, ctx) {
        const path = PROFILE_PATHS[platform(input, PROFILE_PATHS)] as string;
        return get(ctx, path, new URLSearchParams({ handle: handle(input) }));
      },
      parse(res, input) {
        checkStatus(res);
        const profile = PROFILE_READERS[platform(input, PROFILE_PATHS)]?.(res.body, handle(input));
        if (!profile) throw invalidResponse(KEY, res, "without the profile");
        return { status: "completed", data: { profile } };
      },
    },
    "social.content.search": {
      request(input, ctx) {
        const endpoint = SEARCH_PATHS[platform(input, SEARCH_PATHS)] as [string, string];
        return pageRequest(ctx, new InputReader(KEY, input), endpoint, "query");
      },
      parse(res, input) {
        checkStatus(res);
        const page = SEARCH_READERS[platform(input, SEARCH_PATHS)]?.(res.body);
        if (!page) throw invalidResponse(KEY, res, "without search results");
        return { status: "completed", data: { posts: page.items, nextCursor: page.nextCursor } };
      },
    },
    "social.comments.list": {
      request(input, ctx) {
        const endpoint = COMMENT_PATHS[postNetwork(input)] as [string, string];
        return pageRequest(ctx, new InputReader(KEY, input), endpoint, "url");
      },
      parse(res, input) {
        checkStatus(res);
        const page = COMMENT_READERS[postNetwork(input)]?.(res.body);
        if (!page) throw invalidResponse(KEY, res, "without comments");
        return { status: "completed", data: { comments: page.items, nextCursor: page.nextCursor } };
      },
    },
  },
});
