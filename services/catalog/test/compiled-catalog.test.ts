// The compiled catalog: it answers exactly what the YAML loaded and derived answers (byte for byte,
// today's wire bytes), it is read back only for the very files it was compiled from (a changed YAML
// is compiled again, or refused when invalid, never served from the older artifact), and a damaged
// artifact is compiled again rather than served.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  GetCapabilityResponse,
  GetCatalogSummaryResponse,
  GetContractResponse,
  GetDomainResponse,
  ListCapabilitiesResponse,
  ListCapabilityRoutesResponse,
  ListDomainRoutesResponse,
  ListDomainsResponse,
} from "@agentic/proto/catalog/v1";
import { CatalogValidationError } from "../src/domain";
import { DEFAULT_CATALOG_DIR, loadCatalog, loadServedCatalog } from "../src/source";

const encoded = (bytes: Uint8Array): Buffer => Buffer.from(bytes);

describe("the compiled catalog", () => {
  let work: string;
  let catalogDir: string;
  let compiledDir: string;
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), "catalog-compiled-"));
    catalogDir = join(work, "catalog");
    compiledDir = join(work, "compiled");
    cpSync(DEFAULT_CATALOG_DIR, catalogDir, { recursive: true });
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  const artifacts = () => readdirSync(compiledDir).filter((f) => f.endsWith(".catalog"));
  const editEmail = (edit: (text: string) => string) => {
    const file = join(catalogDir, "email.yaml");
    writeFileSync(file, edit(readFileSync(file, "utf8")));
  };

  it("answers every RPC with the bytes the loaded catalog's records encode to", () => {
    const index = loadCatalog(DEFAULT_CATALOG_DIR);
    const { catalog, from } = loadServedCatalog(DEFAULT_CATALOG_DIR, { compiledDir: false });
    expect(from).toBe("yaml");
    const v = index.version;
    expect(catalog.version).toBe(v);
    const { answers } = catalog;
    expect(answers.listDomains()).toEqual(
      encoded(ListDomainsResponse.encode({ domains: index.listDomains(), catalogVersion: v }).finish()),
    );
    expect(answers.getCatalogSummary()).toEqual(
      encoded(GetCatalogSummaryResponse.encode({ ...index.summary(), catalogVersion: v }).finish()),
    );
    let capabilities = 0;
    for (const domain of index.listDomains()) {
      const d = domain.domainKey;
      expect(answers.getDomain(d)).toEqual(encoded(GetDomainResponse.encode({ domain, catalogVersion: v }).finish()));
      const list = index.listCapabilities(d)!;
      expect(answers.listCapabilities(d)).toEqual(
        encoded(ListCapabilitiesResponse.encode({ capabilities: list, catalogVersion: v }).finish()),
      );
      expect(answers.listDomainRoutes(d)).toEqual(
        encoded(ListDomainRoutesResponse.encode({ routes: index.listDomainRoutes(d)!, catalogVersion: v }).finish()),
      );
      for (const capability of list) {
        const c = capability.capabilityId;
        capabilities++;
        expect(answers.getCapability(d, c)).toEqual(encoded(GetCapabilityResponse.encode({ capability, catalogVersion: v }).finish()));
        expect(answers.listCapabilityRoutes(d, c)).toEqual(
          encoded(ListCapabilityRoutesResponse.encode({ routes: index.listCapabilityRoutes(d, c)!, catalogVersion: v }).finish()),
        );
        expect(answers.getContract(d, c)).toEqual(
          encoded(GetContractResponse.encode({ contract: index.getContract(d, c)!, catalogVersion: v }).finish()),
        );
      }
    }
    expect(capabilities).toBeGreaterThan(50);
    expect(answers.getDomain("nope")).toBeUndefined();
    expect(answers.getCapability("email", "nope")).toBeUndefined();
    expect(catalog.hasDomain("email") && !catalog.hasDomain("nope") && catalog.hasCapability("email", "send")).toBe(true);
  });

  it("is compiled once and read back at the next start", () => {
    const first = loadServedCatalog(catalogDir, { compiledDir });
    expect(first.from).toBe("yaml");
    expect(first.problem).toBeUndefined();
    expect(artifacts()).toHaveLength(1);
    const second = loadServedCatalog(catalogDir, { compiledDir });
    expect(second.from).toBe("artifact");
    expect(second.artifact).toBe(join(compiledDir, artifacts()[0]!));
    expect(second.catalog.version).toBe(first.catalog.version);
    expect(second.catalog.answers.listDomainRoutes("email")).toEqual(first.catalog.answers.listDomainRoutes("email"));
  });

  it("never serves a changed YAML from the artifact of the older one", () => {
    const before = loadServedCatalog(catalogDir, { compiledDir });
    expect(before.catalog.getDomain("email")?.label).toBe("Email");
    editEmail((text) => text.replace(/^label: Email$/m, "label: Mail"));
    const after = loadServedCatalog(catalogDir, { compiledDir });
    expect(after.from).toBe("yaml");
    expect(after.catalog.getDomain("email")?.label).toBe("Mail");
    expect(after.catalog.version).not.toBe(before.catalog.version);
    expect(artifacts()).toHaveLength(2);
    // And the same edit under another base path is another artifact too.
    expect(loadServedCatalog(catalogDir, { compiledDir, basePath: "/v2" }).from).toBe("yaml");
    expect(loadServedCatalog(catalogDir, { compiledDir, basePath: "/v2" }).catalog.getDomain("email")?.capabilitiesPath).toBe(
      "/v2/domains/email/capabilities",
    );
  });

  it("refuses a changed YAML that is invalid, though the artifact of the valid one is there", () => {
    loadServedCatalog(catalogDir, { compiledDir });
    editEmail((text) => text.replace(/^label: Email$/m, "label: Email\nlabel: Twice"));
    expect(() => loadServedCatalog(catalogDir, { compiledDir })).toThrow(CatalogValidationError);
  });

  it("compiles again, and says why, when the artifact is damaged, cut short or of other data", () => {
    const { catalog } = loadServedCatalog(catalogDir, { compiledDir });
    const [name] = artifacts();
    const path = join(compiledDir, name!);
    const good = readFileSync(path);

    const flipped = Buffer.from(good);
    flipped[flipped.length - 100]! ^= 0xff;
    writeFileSync(path, flipped);
    const damaged = loadServedCatalog(catalogDir, { compiledDir });
    expect([damaged.from, damaged.problem]).toEqual(["yaml", expect.stringContaining("checksum")]);
    expect(damaged.catalog.answers.listDomains()).toEqual(catalog.answers.listDomains());
    expect(readFileSync(path)).toEqual(good); // stored again, whole

    writeFileSync(path, good.subarray(0, 40));
    expect(loadServedCatalog(catalogDir, { compiledDir }).problem).toMatch(/truncated|unreadable/);

    // Another catalog's artifact under this key (copied by hand) is not this catalog.
    const otherDir = join(work, "other");
    cpSync(catalogDir, otherDir, { recursive: true });
    writeFileSync(
      join(otherDir, "email.yaml"),
      readFileSync(join(otherDir, "email.yaml"), "utf8").replace(/^label: Email$/m, "label: Other"),
    );
    const other = loadServedCatalog(otherDir, { compiledDir: join(work, "other-compiled") });
    const [otherName] = readdirSync(join(work, "other-compiled"));
    writeFileSync(path, readFileSync(join(work, "other-compiled", otherName!)));
    const mixed = loadServedCatalog(catalogDir, { compiledDir });
    expect(other.catalog.getDomain("email")?.label).toBe("Other");
    expect([mixed.from, mixed.problem, mixed.catalog.getDomain("email")?.label]).toEqual([
      "yaml",
      expect.stringContaining("compiled from other data"),
      "Email",
    ]);
  });

  it("serves the catalog compiled now when the folder for artifacts cannot be written", () => {
    const file = join(work, "a-file");
    writeFileSync(file, "not a folder");
    const loaded = loadServedCatalog(catalogDir, { compiledDir: join(file, "compiled") });
    expect(loaded.from).toBe("yaml");
    expect(loaded.problem).toMatch(/not stored/);
    expect(loaded.catalog.hasCapability("email", "send")).toBe(true);
  });
});
