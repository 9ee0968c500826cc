// ScrapeCreators (social.profile.lookup, social.content.search, social.comments.list): one GET endpoint per
// network and capability with `x-api-key` on direct routes, e.g. /v1/tiktok/profile?handle=,
// /v1/youtube/search?query=&continuationToken=, /v1/tiktok/video/comments?url=&cursor=. Each answers in its
// network's own shape (read by scrapecreators-shapes.ts); errors {success: false, message} (401 key,
// 402 credits, 404 unknown account). Networks without an endpoint here are refused as invalid_input.
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import type { CapabilityInput, ProviderAdapter, ProviderContext, ProviderResult } from "../domain/provider-port";
import { assertCapability } from "./provider";
import { COMMENT_READERS, PROFILE_READERS, SEARCH_READERS } from "./scrapecreators-shapes";
import { invalidResponse, stringField, vendorError } from "./vendor-error";
import type { ProviderModule } from "./provider-module";

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

export class ScrapecreatorsAdapter implements ProviderAdapter {
  readonly providerKey = "scrapecreators";
  readonly capabilityKeys = ["social.profile.lookup", "social.content.search", "social.comments.list"] as const;

  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
    assertCapability(this, capabilityKey);
    const read = new InputReader(this.providerKey, input);
    const params = new URLSearchParams();
    let path: string;
    if (capabilityKey === "social.profile.lookup") {
      const platform = this.platform(input, PROFILE_PATHS);
      path = PROFILE_PATHS[platform] as string;
      params.set("handle", this.handle(input));
    } else {
      const [endpoint, cursorName] =
        capabilityKey === "social.content.search"
          ? (SEARCH_PATHS[this.platform(input, SEARCH_PATHS)] as [string, string])
          : (COMMENT_PATHS[this.postNetwork(input)] as [string, string]);
      path = endpoint;
      if (capabilityKey === "social.content.search") params.set("query", read.string("query", true));
      else params.set("url", read.string("url", true));
      const cursor = read.string("cursor");
      if (cursor) params.set(cursorName, cursor);
    }
    return {
      method: "GET",
      url: `${ctx.baseUrl}${path}?${params.toString()}`,
      headers: ctx.credentials ? { "x-api-key": ctx.credentials.apiKey } : {},
    };
  }

  parseResponse(capabilityKey: string, res: RailResponse, input: CapabilityInput): ProviderResult {
    assertCapability(this, capabilityKey);
    if (res.status !== 200)
      throw vendorError(this.providerKey, res, { message: stringField(res.body, "message") ?? stringField(res.body, "error") });
    if (capabilityKey === "social.profile.lookup") {
      const profile = PROFILE_READERS[this.platform(input, PROFILE_PATHS)]?.(res.body, this.handle(input));
      if (!profile) throw invalidResponse(this.providerKey, res, "without the profile");
      return { status: "completed", data: { profile } };
    }
    if (capabilityKey === "social.content.search") {
      const page = SEARCH_READERS[this.platform(input, SEARCH_PATHS)]?.(res.body);
      if (!page) throw invalidResponse(this.providerKey, res, "without search results");
      return { status: "completed", data: { posts: page.items, nextCursor: page.nextCursor } };
    }
    const page = COMMENT_READERS[this.postNetwork(input)]?.(res.body);
    if (!page) throw invalidResponse(this.providerKey, res, "without comments");
    return { status: "completed", data: { comments: page.items, nextCursor: page.nextCursor } };
  }

  private refuse(field: string, message: string): never {
    throw inputRefusal(this.providerKey, message, field);
  }

  /** The input's platform, when this capability has an endpoint for it. */
  private platform(input: CapabilityInput, endpoints: Readonly<Record<string, unknown>>): string {
    const platform = new InputReader(this.providerKey, input).string("platform", true);
    if (!(platform in endpoints)) this.refuse("platform", `platform must be one of ${Object.keys(endpoints).join(", ")} on this route`);
    return platform;
  }

  /** The handle given, else the first segment of the profile URL (`https://www.tiktok.com/@ada` → `ada`). */
  private handle(input: CapabilityInput): string {
    const read = new InputReader(this.providerKey, input);
    const given = read.string("handle");
    if (given) return given.trim().replace(/^@/, "");
    const url = read.string("url");
    if (!url) return this.refuse("handle", "give `handle` or `url`");
    let segment: string | undefined;
    try {
      segment = new URL(url).pathname.split("/").filter(Boolean)[0];
    } catch {
      return this.refuse("url", "`url` is not a valid URL");
    }
    const handle = segment?.replace(/^@/, "");
    return handle ? decodeURIComponent(handle) : this.refuse("url", "`url` does not name an account; give `handle`");
  }

  /** The network of a post URL, by its host. */
  private postNetwork(input: CapabilityInput): string {
    const url = new InputReader(this.providerKey, input).string("url", true);
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      return this.refuse("url", "`url` is not a valid URL");
    }
    const match = HOSTS.find(([pattern]) => pattern.test(host));
    return match ? match[1] : this.refuse("url", "comments are listed for TikTok and YouTube post URLs on this route");
  }
}

export const scrapecreatorsProvider: ProviderModule = {
  providerKey: "scrapecreators",
  defaultBaseUrls: { direct: "https://api.scrapecreators.com" },
  create: () => new ScrapecreatorsAdapter(),
};
