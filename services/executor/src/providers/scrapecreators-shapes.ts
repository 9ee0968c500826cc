// ScrapeCreators answers in each network's own JSON shape; these read them into one shape per capability
// (a profile, a page of posts, a page of comments). A reader returns undefined when the answer lacks what
// that network's endpoint always sends, so the adapter can call it an invalid response.
import { isRecord } from "./vendor-error";

type Json = Record<string, unknown>;

export interface SocialProfile {
  platform: string;
  handle: string;
  displayName: string | null;
  bio: string | null;
  followers: number | null;
  following: number | null;
  posts: number | null;
  verified: boolean | null;
  avatarUrl: string | null;
  profileUrl: string;
  externalUrl: string | null;
}

export interface SocialPost {
  id: string;
  url: string | null;
  text: string | null;
  author: string | null;
  publishedAt: string | null;
  views: number | null;
  likes: number | null;
  comments: number | null;
}

export interface SocialComment {
  id: string;
  text: string;
  author: string | null;
  publishedAt: string | null;
  likes: number | null;
  replies: number | null;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Follows a path of keys (and array indexes) through nested JSON. */
function at(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof key === "number") current = Array.isArray(current) ? current[key] : undefined;
    else current = isRecord(current) ? current[key] : undefined;
  }
  return current;
}
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === "boolean" ? v : null);
const records = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isRecord) : []);
/** Unix seconds as ISO 8601. */
const fromUnix = (v: unknown): string | null => (typeof v === "number" ? new Date(v * 1000).toISOString() : null);
const cursorOf = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : null);

/** A profile per network; `handle` is the one asked for, used when the answer omits it. */
export const PROFILE_READERS: Readonly<Record<string, (body: unknown, handle: string) => SocialProfile | undefined>> = {
  tiktok(body, handle) {
    const user = at(body, "user");
    if (!isRecord(user)) return undefined;
    const h = str(user.uniqueId) ?? handle;
    return {
      platform: "tiktok",
      handle: h,
      displayName: str(user.nickname),
      bio: str(user.signature),
      followers: num(at(body, "stats", "followerCount")),
      following: num(at(body, "stats", "followingCount")),
      posts: num(at(body, "stats", "videoCount")),
      verified: bool(user.verified),
      avatarUrl: str(user.avatarLarger),
      profileUrl: `https://www.tiktok.com/@${h}`,
      externalUrl: str(at(user, "bioLink", "link")),
    };
  },
  instagram(body, handle) {
    const user = at(body, "data", "user");
    if (!isRecord(user)) return undefined;
    const h = str(user.username) ?? handle;
    return {
      platform: "instagram",
      handle: h,
      displayName: str(user.full_name),
      bio: str(user.biography),
      followers: num(at(user, "edge_followed_by", "count")),
      following: num(at(user, "edge_follow", "count")),
      posts: num(at(user, "edge_owner_to_timeline_media", "count")),
      verified: bool(user.is_verified),
      avatarUrl: str(user.profile_pic_url_hd) ?? str(user.profile_pic_url),
      profileUrl: `https://www.instagram.com/${h}/`,
      externalUrl: str(user.external_url),
    };
  },
  youtube(body, handle) {
    if (!isRecord(body) || (str(body.channelId) === null && str(body.name) === null)) return undefined;
    const h = (str(body.handle) ?? handle).replace(/^@/, "");
    return {
      platform: "youtube",
      handle: h,
      displayName: str(body.name),
      bio: str(body.description),
      followers: num(body.subscriberCount),
      following: null,
      posts: num(body.videoCount),
      verified: null,
      avatarUrl: str(at(body, "avatar", "image", "sources", 0, "url")),
      profileUrl: str(body.channel) ?? `https://www.youtube.com/@${h}`,
      externalUrl: str(at(body, "links", 0)),
    };
  },
  x(body, handle) {
    const legacy = at(body, "legacy");
    if (!isRecord(legacy)) return undefined;
    const h = str(legacy.screen_name) ?? handle;
    return {
      platform: "x",
      handle: h,
      displayName: str(legacy.name),
      bio: str(legacy.description),
      followers: num(legacy.followers_count),
      following: num(legacy.friends_count),
      posts: num(legacy.statuses_count),
      verified: bool(at(body, "is_blue_verified")),
      avatarUrl: str(legacy.profile_image_url_https),
      profileUrl: `https://x.com/${h}`,
      externalUrl: str(legacy.url),
    };
  },
  threads(body, handle) {
    if (!isRecord(body) || str(body.username) === null) return undefined;
    const h = str(body.username) ?? handle;
    return {
      platform: "threads",
      handle: h,
      displayName: str(body.full_name),
      bio: str(body.biography),
      followers: num(body.follower_count),
      following: null,
      posts: null,
      verified: bool(body.is_verified),
      avatarUrl: str(body.profile_pic_url),
      profileUrl: `https://www.threads.net/@${h}`,
      externalUrl: str(at(body, "bio_links", 0, "url")),
    };
  },
};

export const SEARCH_READERS: Readonly<Record<string, (body: unknown) => Page<SocialPost> | undefined>> = {
  tiktok(body) {
    const list = at(body, "search_item_list");
    if (!Array.isArray(list)) return undefined;
    const items = records(list)
      .map((item) => at(item, "aweme_info"))
      .filter(isRecord)
      .flatMap((v) => {
        const id = str(v.aweme_id);
        if (!id) return [];
        const author = str(at(v, "author", "unique_id"));
        return [
          {
            id,
            url: str(v.share_url) ?? (author ? `https://www.tiktok.com/@${author}/video/${id}` : null),
            text: str(v.desc),
            author,
            publishedAt: fromUnix(v.create_time),
            views: num(at(v, "statistics", "play_count")),
            likes: num(at(v, "statistics", "digg_count")),
            comments: num(at(v, "statistics", "comment_count")),
          },
        ];
      });
    return { items, nextCursor: at(body, "has_more") === true ? cursorOf(at(body, "cursor")) : null };
  },
  youtube(body) {
    const list = at(body, "videos");
    if (!Array.isArray(list)) return undefined;
    const items = records(list).flatMap((v) => {
      const id = str(v.id);
      if (!id) return [];
      return [
        {
          id,
          url: str(v.url) ?? `https://www.youtube.com/watch?v=${id}`,
          text: str(v.title),
          author: str(at(v, "channel", "handle")) ?? str(at(v, "channel", "title")),
          publishedAt: str(v.publishedTime),
          views: num(v.viewCountInt),
          likes: null,
          comments: null,
        },
      ];
    });
    return { items, nextCursor: cursorOf(at(body, "continuationToken")) };
  },
};

export const COMMENT_READERS: Readonly<Record<string, (body: unknown) => Page<SocialComment> | undefined>> = {
  tiktok(body) {
    const list = at(body, "comments");
    if (!Array.isArray(list)) return undefined;
    const items = records(list).flatMap((c) => {
      const id = str(c.cid);
      const text = typeof c.text === "string" ? c.text : null;
      if (!id || text === null) return [];
      return [
        {
          id,
          text,
          author: str(at(c, "user", "unique_id")),
          publishedAt: fromUnix(c.create_time),
          likes: num(c.digg_count),
          replies: num(c.reply_comment_total),
        },
      ];
    });
    return { items, nextCursor: at(body, "has_more") === true ? cursorOf(at(body, "cursor")) : null };
  },
  youtube(body) {
    const list = at(body, "comments");
    if (!Array.isArray(list)) return undefined;
    const items = records(list).flatMap((c) => {
      const id = str(c.id);
      const text = typeof c.content === "string" ? c.content : null;
      if (!id || text === null) return [];
      return [
        {
          id,
          text,
          author: str(at(c, "author", "name")),
          publishedAt: str(c.publishedTime),
          likes: num(at(c, "engagement", "likes")),
          replies: num(at(c, "engagement", "replies")) ?? num(c.replyCount),
        },
      ];
    });
    return { items, nextCursor: cursorOf(at(body, "continuationToken")) };
  },
};
