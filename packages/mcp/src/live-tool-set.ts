// The tool set of the catalog version the API serves now. A check is a conditional GET /domains
// (304 while the version holds); a new version is read in full and built once. Concurrent callers
// share one check, and a check younger than `recheckMs` is trusted without asking again.
import type { AgenticApiClient } from "@agentic-api/sdk";
import { readCatalog, readDomains } from "./catalog";
import { DEFAULT_GENERIC_TOOLS_ABOVE } from "./generic-tools-threshold";
import { buildToolSet, type ToolSet } from "./tool-set";

export class LiveToolSet {
  private set: ToolSet | undefined;
  private checkedAt = -Infinity;
  private checking: Promise<ToolSet> | undefined;

  /**
   * `client` reads the catalog (no key needed); `recheckMs`: how long a check stands (0: every call
   * checks); past `genericToolsAbove` capabilities only the generic tools are listed.
   */
  constructor(
    private readonly client: AgenticApiClient,
    private readonly recheckMs = 0,
    private readonly genericToolsAbove = DEFAULT_GENERIC_TOOLS_ABOVE,
  ) {}

  /** The current tool set: the one held while the catalog version is the same, else a new one. */
  current(): Promise<ToolSet> {
    if (this.set && performance.now() - this.checkedAt < this.recheckMs) return Promise.resolve(this.set);
    this.checking ??= this.check().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async check(): Promise<ToolSet> {
    const started = performance.now();
    const held = this.set;
    if (held) {
      const seen = await readDomains(this.client, held.version);
      if (!seen.modified || seen.etag === held.version) {
        this.checkedAt = started;
        return held;
      }
    }
    this.set = buildToolSet(await readCatalog(this.client, 3, this.genericToolsAbove), this.genericToolsAbove);
    this.checkedAt = started;
    return this.set;
  }
}
