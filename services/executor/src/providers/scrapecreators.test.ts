import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { scrapecreatorsProvider } from "./scrapecreators";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(scrapecreatorsProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const ctx = { baseUrl: "https://api.scrapecreators.com", credentials: { apiKey: "sc_1" } };

describe("ScrapeCreators adapter (social.profile.lookup, social.content.search, social.comments.list)", () => {
  it("builds each network's GET endpoint with x-api-key, the handle from a profile URL, the cursor under its network's name", () => {
    expect(adapter.buildRequest("social.profile.lookup", { platform: "x", url: "https://x.com/ada?s=1" }, ctx)).toEqual({
      method: "GET",
      url: "https://api.scrapecreators.com/v1/twitter/profile?handle=ada",
      headers: { "x-api-key": "sc_1" },
    });
    expect(adapter.buildRequest("social.profile.lookup", { platform: "youtube", handle: "@ada" }, ctx).url).toBe(
      "https://api.scrapecreators.com/v1/youtube/channel?handle=ada",
    );
    expect(adapter.buildRequest("social.content.search", { platform: "youtube", query: "x402", cursor: "c2" }, ctx).url).toBe(
      "https://api.scrapecreators.com/v1/youtube/search?query=x402&continuationToken=c2",
    );
    expect(
      adapter.buildRequest("social.comments.list", { url: "https://www.tiktok.com/@a/video/1", cursor: "20" }, { baseUrl: "https://s" }),
    ).toEqual({
      method: "GET",
      url: "https://s/v1/tiktok/video/comments?url=https%3A%2F%2Fwww.tiktok.com%2F%40a%2Fvideo%2F1&cursor=20",
      headers: {},
    });
  });

  it("refuses networks it has no endpoint for, naming the field", () => {
    expect(() => adapter.buildRequest("social.profile.lookup", { platform: "linkedin", handle: "a" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", blame: "input", field: "platform" }),
    );
    expect(() => adapter.buildRequest("social.content.search", { platform: "reddit", query: "q" }, ctx)).toThrow(
      expect.objectContaining({ field: "platform" }),
    );
    expect(() => adapter.buildRequest("social.comments.list", { url: "https://www.instagram.com/p/abc/" }, ctx)).toThrow(
      expect.objectContaining({ field: "url" }),
    );
    expect(() => adapter.buildRequest("social.profile.lookup", { platform: "tiktok", url: "https://www.tiktok.com/" }, ctx)).toThrow(
      expect.objectContaining({ field: "url" }),
    );
  });

  it("reads each network's shape into one profile, page of posts and page of comments", () => {
    const ig = { success: true, data: { user: { username: "ada", full_name: "Ada", edge_followed_by: { count: 10 }, is_verified: true } } };
    expect(adapter.parseResponse("social.profile.lookup", response(200, ig), { platform: "instagram", handle: "ada" }).data).toEqual({
      profile: expect.objectContaining({
        platform: "instagram",
        handle: "ada",
        displayName: "Ada",
        followers: 10,
        verified: true,
        profileUrl: "https://www.instagram.com/ada/",
      }),
    });
    const tt = {
      search_item_list: [
        { aweme_info: { aweme_id: "9", desc: "d", create_time: 0, author: { unique_id: "u" }, statistics: { play_count: 5 } } },
      ],
      cursor: 10,
      has_more: false,
    };
    expect(adapter.parseResponse("social.content.search", response(200, tt), { platform: "tiktok", query: "q" }).data).toEqual({
      posts: [
        {
          id: "9",
          url: "https://www.tiktok.com/@u/video/9",
          text: "d",
          author: "u",
          publishedAt: "1970-01-01T00:00:00.000Z",
          views: 5,
          likes: null,
          comments: null,
        },
      ],
      nextCursor: null,
    });
    const yt = { comments: [{ id: "c1", content: "hi", author: { name: "@v" }, engagement: { likes: 2 } }], continuationToken: "n" };
    expect(adapter.parseResponse("social.comments.list", response(200, yt), { url: "https://youtu.be/abc" }).data).toEqual({
      comments: [{ id: "c1", text: "hi", author: "@v", publishedAt: null, likes: 2, replies: null }],
      nextCursor: "n",
    });
    expect(() =>
      adapter.parseResponse("social.profile.lookup", response(200, { success: true }), { platform: "tiktok", handle: "a" }),
    ).toThrow(expect.objectContaining({ kind: "invalid_response" }));
    expect(() =>
      adapter.parseResponse("social.profile.lookup", response(402, { success: false, message: "Out of credits" }), {
        platform: "tiktok",
        handle: "a",
      }),
    ).toThrow(expect.objectContaining({ blame: "provider", retryable: false }));
  });

  it("looks up profiles on every supported network through the sandbox", async () => {
    for (const platform of ["tiktok", "instagram", "youtube", "x", "threads"]) {
      const { result } = await routes.execute("scrapecreators", "direct", "social.profile.lookup", { platform, handle: "ada" });
      expect(result.data.profile).toMatchObject({
        platform,
        handle: "ada",
        displayName: expect.stringContaining("ada"),
        followers: expect.any(Number),
      });
    }
  });

  it("pages through a search and a comment list with the returned cursor", async () => {
    const first = await routes.execute("scrapecreators", "direct", "social.content.search", { platform: "tiktok", query: "latte art" });
    expect(first.result.data.posts).toHaveLength(3);
    const next = await routes.execute("scrapecreators", "direct", "social.content.search", {
      platform: "tiktok",
      query: "latte art",
      cursor: first.result.data.nextCursor,
    });
    expect(next.result.data.posts).not.toContainEqual((first.result.data.posts as unknown[])[0]);
    const comments = await routes.execute("scrapecreators", "direct", "social.comments.list", {
      url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    });
    expect(comments.result.data).toMatchObject({
      comments: expect.arrayContaining([expect.objectContaining({ text: "Comment 1 on this video" })]),
      nextCursor: "3",
    });
  });

  it("reports an unknown account as the caller's problem", async () => {
    await expect(
      routes.executeError("scrapecreators", "direct", "social.profile.lookup", { platform: "tiktok", handle: "ghost" }),
    ).resolves.toMatchObject({
      kind: "http_4xx",
      status: 404,
      blame: "input",
    });
  });
});
