// ListCapabilityEntries over real gRPC, on a generated catalog twice the shipped one with a capability
// of 200 routes: walked page by page it gives every capability once, in catalog order, each with exactly
// what GetCapability, ListCapabilityRoutes and GetContract answer of it; a page stops before its byte
// cap (holding one entry at least); a bad page is refused.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { status } from "@grpc/grpc-js";
import { fromServiceError } from "@agentic/platform";
import { CapabilityEntry, ListCapabilityEntriesResponse } from "@agentic/proto/catalog/v1";
import { compileCatalog, readCompiled } from "../../src/compiled";
import { capabilityEntriesOf, ENTRIES_PAGE_MAX_BYTES } from "../../src/compiled/capability-entries";
import { loadCatalog } from "../../src/source";
import { generateTestCatalog, startTestCatalog, type TestCatalog } from "../harness";

describe("ListCapabilityEntries", () => {
  let dir: string;
  let cat: TestCatalog;
  let expected: CapabilityEntry[];
  const size = (e: CapabilityEntry) => CapabilityEntry.encode(e).finish().length;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "catalog-entries-"));
    generateTestCatalog(2, dir, { wide: 200 });
    cat = await startTestCatalog({ catalogDir: dir });
    // Each capability's entry as the per-capability RPCs answer it, in catalog order.
    expected = cat.catalog.listDomains().flatMap(({ domainKey }) =>
      cat.catalog.listCapabilities(domainKey)!.map(({ capabilityId }) => ({
        capability: cat.catalog.getCapability(domainKey, capabilityId)!,
        routes: cat.catalog.listCapabilityRoutes(domainKey, capabilityId)!,
        contract: cat.catalog.getContract(domainKey, capabilityId),
      })),
    );
  });
  afterAll(async () => {
    await cat?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every entry, page by page from `read`, checking each page's version, total and byte cap. */
  const walk = async (read: (offset: number) => Promise<ListCapabilityEntriesResponse>, maxPageBytes: number) => {
    const seen: CapabilityEntry[] = [];
    const pages: CapabilityEntry[][] = [];
    for (;;) {
      const page = await read(seen.length);
      pages.push(page.entries);
      expect(page).toMatchObject({ catalogVersion: cat.catalog.version, total: expected.length });
      expect(page.entries.length).toBeGreaterThan(0);
      if (page.entries.length > 1) expect(page.entries.reduce((sum, e) => sum + size(e), 0)).toBeLessThanOrEqual(maxPageBytes);
      seen.push(...page.entries);
      if (seen.length >= page.total) return { seen, pages };
    }
  };

  it("walks every capability once over gRPC, in catalog order, each with its routes and contract as the other RPCs answer them", async () => {
    expect(expected.some((e) => e.routes.length === 200)).toBe(true);
    // Pages of the 100x catalog, read on a CI machine that runs other suites beside this one: the 2 s
    // client default once ran out on a page; what this walks is the paging, not the speed.
    const { seen } = await walk(
      (offset) => cat.call.listCapabilityEntries({ offset, limit: 200 }, { deadlineMs: 15_000 }),
      ENTRIES_PAGE_MAX_BYTES,
    );
    expect(seen).toEqual(expected);
    const past = await cat.call.listCapabilityEntries({ offset: expected.length, limit: 10 });
    expect(past).toEqual<ListCapabilityEntriesResponse>({ entries: [], catalogVersion: cat.catalog.version, total: expected.length });
  });

  it("stops a page before the entry that would pass its byte cap, and sends an entry larger than the cap alone", async () => {
    const compiled = readCompiled(compileCatalog(loadCatalog(dir), "test"), "test");
    if ("problem" in compiled) throw new Error(compiled.problem);
    const { header, body } = compiled;
    const bytes = ([at, length]: readonly [number, number]) => body.subarray(at, at + length);
    const cap = 16 * 1024;
    expect(Math.max(...expected.map(size))).toBeGreaterThan(cap);
    const page = capabilityEntriesOf(header.domains, bytes, bytes(header.versionField), cap);
    const { seen, pages } = await walk(async (offset) => ListCapabilityEntriesResponse.decode(page(offset, 200)), cap);
    expect(seen).toEqual(expected);
    // Each page is as full as the cap allows: the next page's first entry would not have fitted.
    expect(pages.length).toBeGreaterThan(2);
    pages.slice(0, -1).forEach((entries, i) => {
      const used = entries.reduce((sum, e) => sum + size(e), 0);
      expect(used + size(pages[i + 1]![0]!)).toBeGreaterThan(cap);
    });
  });

  it("refuses a page out of bounds with INVALID_ARGUMENT naming it", async () => {
    for (const [offset, limit, named] of [
      [-1, 10, "offset"],
      [0, 0, "limit"],
      [0, 201, "limit"],
    ] as const) {
      const err = await cat.call.listCapabilityEntries({ offset, limit }).catch((e) => e);
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      expect(fromServiceError(err)).toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining(named) });
    }
  });
});
