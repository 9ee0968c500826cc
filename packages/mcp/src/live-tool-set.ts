// The tool set of the catalog version the API serves now. Each check is a conditional GET /domains
// (304 while the version holds); a new version is read in full and built once, however many callers
// ask at the same time.
import type { AgenticApiClient } from "@agentic-api/sdk";
import { readCatalog, readDomains } from "./catalog";
import { buildToolSet, type ToolSet } from "./tool-set";

export class LiveToolSet {
  private set: ToolSet | undefined;
  private loading: Promise<ToolSet> | undefined;

  /** `client` reads the catalog (no key needed). */
  constructor(private readonly client: AgenticApiClient) {}

  /** The current tool set: the one held while the catalog version is the same, else a new one. */
  async current(): Promise<ToolSet> {
    const held = this.set;
    if (held) {
      const check = await readDomains(this.client, held.version);
      if (!check.modified || check.etag === held.version) return held;
    }
    return this.reload();
  }

  private reload(): Promise<ToolSet> {
    this.loading ??= readCatalog(this.client)
      .then((view) => {
        this.set = buildToolSet(view);
        return this.set;
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }
}
