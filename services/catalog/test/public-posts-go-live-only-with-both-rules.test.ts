// broadcast.message.send creates a real public post in the caller's name (actsPublicly). The shipped
// catalog keeps it gated; an operator may turn it live only where both rules are declared on the route
// that would run: it posts to the caller's own linked accounts (ownedResource) and runs only an
// approval issued on our side (requiresApproval). Each case edits a copy of the shipped catalog.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CatalogValidationError } from "../src/domain";
import { DEFAULT_CATALOG_DIR, loadCatalog } from "../src/source";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The shipped catalog with broadcast.message.send and its Ayrshare route turned live, after `edit`. */
function liveCopy(edit: (yaml: string) => string = (y) => y): string {
  const dir = mkdtempSync(join(tmpdir(), "catalog-broadcast-"));
  dirs.push(dir);
  cpSync(DEFAULT_CATALOG_DIR, dir, { recursive: true });
  const file = join(dir, "broadcast.yaml");
  const live = readFileSync(file, "utf8")
    .replace("    status: recommend_only\n", "    status: live\n")
    .replace("routeMode: byo\n        status: pending\n        executionGated: true\n", "routeMode: byo\n        status: live\n");
  writeFileSync(file, edit(live));
  return dir;
}

function problems(dir: string): string[] {
  try {
    loadCatalog(dir);
    return [];
  } catch (err) {
    if (err instanceof CatalogValidationError) return err.problems.map((p) => `${p.path}: ${p.message}`);
    throw err;
  }
}

describe("a capability that acts publicly goes live only with both rules", () => {
  it("is gated on the shipped catalog, saying why and how to enable it", () => {
    const send = loadCatalog(DEFAULT_CATALOG_DIR).getCapability("broadcast", "message-send");
    expect(send?.status).toBe("recommend_only");
    expect(send?.gateReason).toMatch(/real public post.*operator enables it/s);
  });

  it("loads when an operator turns it live with ownedResource and requiresApproval on its route", () => {
    expect(problems(liveCopy())).toEqual([]);
    expect(loadCatalog(liveCopy()).getCapability("broadcast", "message-send")?.status).toBe("live");
  });

  it("refuses it live on a managed route posting to the platform's accounts (no ownedResource)", () => {
    const managed = liveCopy((y) =>
      y.replace("        ownedResource: {kind: broadcast.profile, field: profileId}\n", "").replace("routeMode: byo", "routeMode: managed"),
    );
    expect(problems(managed)).toEqual([expect.stringMatching(/ownedResource: required: the capability acts publicly/)]);
  });

  it("refuses it live without requiresApproval (an approval anyone could compute)", () => {
    const unapproved = liveCopy((y) => y.replace(/        requiresApproval: \{[^}]*\}\n/, ""));
    expect(problems(unapproved)).toEqual([expect.stringMatching(/requiresApproval: required: the capability acts publicly/)]);
  });
});
