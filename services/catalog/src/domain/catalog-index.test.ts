// Lookups, immutability and the content version of a loaded catalog.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DEFAULT_CATALOG_DIR, loadCatalog } from "../source";

const VALID = resolve(__dirname, "../../test/fixtures/valid");

/** A temp copy of the real catalog with `edit` applied to one file. */
function editedCatalog(file: string, edit: (text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), "catalog-version-"));
  cpSync(DEFAULT_CATALOG_DIR, dir, { recursive: true });
  const path = join(dir, file);
  const before = readFileSync(path, "utf8");
  const after = edit(before);
  expect(after).not.toBe(before);
  writeFileSync(path, after);
  return dir;
}

describe("lookups", () => {
  const catalog = loadCatalog(VALID);

  it("answers undefined for unknown domains and capabilities", () => {
    expect(catalog.getDomain("vendor")).toBeUndefined();
    expect(catalog.listCapabilities("vendor")).toBeUndefined();
    expect(catalog.listDomainRoutes("vendor")).toBeUndefined();
    expect(catalog.getCapability("email", "nope")).toBeUndefined();
    expect(catalog.getCapability("vendor", "send")).toBeUndefined();
    expect(catalog.listCapabilityRoutes("email", "nope")).toBeUndefined();
    expect(catalog.getContract("email", "nope")).toBeUndefined();
  });

  it("looks capabilities up by id, not by dotted key", () => {
    expect(catalog.getCapability("email", "inbox-buy")).toBeDefined();
    expect(catalog.getCapability("email", "inbox.buy")).toBeUndefined();
  });

  it("returns fresh lists (safe to sort) of frozen, shared records", () => {
    const routes = catalog.listCapabilityRoutes("email", "send") ?? [];
    routes.sort((a, b) => b.startingCostCredits - a.startingCostCredits);
    expect(catalog.listCapabilityRoutes("email", "send")?.[0]?.routeKey).toBe("email.send.resend");
    expect(Object.isFrozen(routes[0])).toBe(true);
    expect(() => {
      (catalog.getDomain("email") as { label: string }).label = "changed";
    }).toThrow(TypeError);
    catalog.summary().providers.pop();
    expect(catalog.summary().providers).toHaveLength(5);
  });
});

describe("version", () => {
  const version = loadCatalog(DEFAULT_CATALOG_DIR).version;

  it("is 16 hex characters and stable across loads of the same data", () => {
    expect(version).toMatch(/^[0-9a-f]{16}$/);
    expect(loadCatalog(DEFAULT_CATALOG_DIR).version).toBe(version);
  });

  it("ignores comments and formatting", () => {
    const dir = editedCatalog("email.yaml", (t) => `# an extra comment\n${t.replace("label: Email\n", "label:   'Email'\n")}`);
    expect(loadCatalog(dir).version).toBe(version);
  });

  it("changes when a price changes", () => {
    const dir = editedCatalog("email.yaml", (t) => t.replace("priceCredits: 12\n", "priceCredits: 13\n"));
    expect(loadCatalog(dir).version).not.toBe(version);
  });

  it("changes when a label changes", () => {
    const dir = editedCatalog("geo.yaml", (t) => t.replace("label: Current Time\n", "label: Local Time\n"));
    expect(loadCatalog(dir).version).not.toBe(version);
  });

  it("covers the served paths, so a different basePath is a different version", () => {
    expect(loadCatalog(DEFAULT_CATALOG_DIR, { basePath: "/v2" }).version).not.toBe(version);
  });
});
