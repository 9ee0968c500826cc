// Catalog answers are immutable for a given catalog version, so the gateway keeps each one rendered
// (JSON bytes, or the text of SKILL.md and llms.txt, with a strong ETag) and serves it from memory. A
// background poll of the catalog's version drops everything when the catalog changes; staleness is
// bounded by the poll.
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Logger } from "@agentic/platform";

/** A body ready to send (JSON unless its headers name another Content-Type), with its validator. */
export interface RenderedBody {
  body: Buffer;
  etag: string;
  /** The catalog version it was read from. */
  catalogVersion: string;
  /** Headers a 200 carries besides the usual ones (a page's Link and X-Total-Count). */
  headers?: Readonly<Record<string, string>>;
  /** The route template it answers (e.g. "/domains/:domainKey"), when it is the answer to a GET of its key's path. */
  route?: string;
}

/** What a loader of a text answer returns (SKILL.md, llms.txt): the text, its Content-Type, the catalog version. */
export interface VersionedText {
  catalogVersion: string;
  text: string;
  contentType: string;
}

/** What a loader returns: the answer and the catalog version it was read from. */
export interface VersionedValue {
  catalogVersion: string;
  value: unknown;
  /** Headers the answer carries (see RenderedBody.headers). */
  headers?: Readonly<Record<string, string>>;
}

/** A whole list as loaded from the catalog, kept as values so that pages of it can be cut. */
export interface VersionedList {
  catalogVersion: string;
  items: readonly unknown[];
}

export interface RenderedCacheOptions {
  /** How often the catalog version is checked, in ms. */
  refreshMs: number;
  /** Most answers kept (paths are bounded by the catalog, but clients can invent keys that 404). */
  maxEntries: number;
  /**
   * Most bytes of rendered answers kept (bodies and keys), so memory follows what is read, not the
   * catalog's size: past it the least recently read answers go first (and are rendered again if asked).
   */
  maxBytes?: number;
}

/** What one kept answer costs besides its body and key (the entry, its ETag and headers), roughly. */
const ENTRY_OVERHEAD_BYTES = 512;

export function render(value: unknown, version: string): RenderedBody {
  return renderBytes(Buffer.from(JSON.stringify(value)), version);
}

function renderBytes(body: Buffer, version: string): RenderedBody {
  const digest = createHash("sha256").update(body).digest("base64url").slice(0, 22);
  return { body, etag: `"${version.slice(0, 16)}-${digest}"`, catalogVersion: version };
}

export class RenderedCatalogCache {
  private version = "";
  private readonly entries: LRUCache<string, RenderedBody>;
  /** Whole lists, for the pages cut from them (few: one per list path asked for in pages). */
  private readonly lists: LRUCache<string, VersionedList>;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly readVersion: () => Promise<string>,
    private readonly opts: RenderedCacheOptions,
    private readonly logger?: Logger,
  ) {
    this.entries = new LRUCache({
      max: opts.maxEntries,
      ...(opts.maxBytes === undefined
        ? {}
        : { maxSize: opts.maxBytes, sizeCalculation: (v: RenderedBody, k: string) => v.body.length + k.length + ENTRY_OVERHEAD_BYTES }),
    });
    this.lists = new LRUCache({ max: Math.max(1, Math.floor(opts.maxEntries / 10)) });
  }

  /** How many rendered answers are kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** The catalog version last seen ("" before any). */
  get catalogVersion(): string {
    return this.version;
  }

  /**
   * Returns the rendered answer for `key`, loading and rendering it on a miss. Errors are not cached.
   * With `route`, `key` is the path the answer is served at, and cachedReads may answer it from here.
   */
  async get(key: string, load: () => Promise<VersionedValue>, route?: string): Promise<RenderedBody> {
    const hit = this.entries.get(key);
    if (hit) return hit;
    const { catalogVersion, value, headers } = await load();
    return this.keep(key, render(value, catalogVersion), headers, route);
  }

  /** As get, for an answer that is text of its own Content-Type rather than JSON. */
  async getText(key: string, load: () => Promise<VersionedText>, route?: string): Promise<RenderedBody> {
    const hit = this.entries.get(key);
    if (hit) return hit;
    const { catalogVersion, text, contentType } = await load();
    return this.keep(key, renderBytes(Buffer.from(text, "utf8"), catalogVersion), { "Content-Type": contentType }, route);
  }

  private keep(key: string, rendered: RenderedBody, headers: Readonly<Record<string, string>> | undefined, route: string | undefined) {
    this.observe(rendered.catalogVersion);
    if (headers !== undefined) rendered.headers = headers;
    if (route !== undefined) rendered.route = route;
    this.entries.set(key, rendered);
    return rendered;
  }

  /** The whole list kept for `key`, loading it on a miss (errors are not kept). */
  async getList(key: string, load: () => Promise<VersionedList>): Promise<VersionedList> {
    const hit = this.lists.get(key);
    if (hit) return hit;
    const list = await load();
    this.observe(list.catalogVersion);
    this.lists.set(key, list);
    return list;
  }

  /** The answer kept for `key`, if any, without loading it. */
  peek(key: string): RenderedBody | undefined {
    return this.entries.get(key);
  }

  /**
   * Records the catalog version seen; a new one empties the cache. During a catalog rollout that
   * mixes versions this may flip a few times, which costs misses, never a wrong answer for long.
   */
  observe(catalogVersion: string): void {
    if (catalogVersion === this.version) return;
    if (this.version) this.logger?.info({ from: this.version, to: catalogVersion }, "catalog version changed; cache emptied");
    this.version = catalogVersion;
    this.entries.clear();
    this.lists.clear();
  }

  /** Starts the version poll; failures are ignored (answers stay as they are until the catalog is back). */
  start(): void {
    const poll = async () => {
      try {
        this.observe(await this.readVersion());
      } catch {
        // The catalog is unreachable: cached answers stay valid for the last known version.
      }
    };
    this.timer = setInterval(poll, this.opts.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
