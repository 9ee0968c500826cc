// The compiled form of one catalog version: every answer the catalog's gRPC service gives, encoded
// once as the wire bytes it sends, in one buffer, with a small JSON header saying where each answer
// is (each record is encoded once; see the layout below). Serving it encodes nothing and holds no record per capability or route: memory follows the
// compiled size (a catalog 100x today's is about 27 MB), and a start reads it instead of checking and
// deriving the YAML again. Layout: MAGIC, header length (uint32 BE), header (JSON), body (the answers).
import { createHash } from "node:crypto";
import {
  GetCatalogSummaryResponse,
  GetContractResponse,
  ListCapabilitiesResponse,
  ListCapabilityRoutesResponse,
  ListDomainsResponse,
} from "@agentic/proto/catalog/v1";
import type { CatalogIndex } from "../domain";

const MAGIC = Buffer.from("agentic-catalog-compiled\n");
/** Changes whenever the layout below does: an artifact of another format is compiled again. */
export const COMPILED_FORMAT = 1;

/** Where bytes are in the body: [offset, length]. */
export type Span = readonly [number, number];

// Every answer is field 1 (the record, or the list's records) then field 2 (catalog_version), so a
// list's answer is its records' entries followed by the version field, and a one-record answer is
// that record's entry followed by it. Each list is laid out as [entries][version field]: the list is
// sent as one view of the body, a single record as its entry joined to the version field.
export interface CompiledCapability {
  capabilityId: string;
  /** Its entry, inside its domain's `capabilities`. */
  capability: Span;
  /** Its routes' entries, inside its domain's `routes`. */
  routes: Span;
  /** Its contract's entry. */
  contract: Span;
}

export interface CompiledDomain {
  domainKey: string;
  /** Its entry, inside `domains`. */
  domain: Span;
  /** ListCapabilities' whole answer: its capabilities' entries, then the version field. */
  capabilities: Span;
  /** ListDomainRoutes' whole answer: its routes' entries (capability by capability), then the version field. */
  routes: Span;
  capabilityAnswers: CompiledCapability[];
}

export interface CompiledHeader {
  format: number;
  /** What the artifact was compiled from (compiledKeyOf): read only under the same key. */
  key: string;
  version: string;
  /** sha256 (hex) of the body: a damaged artifact is never served. */
  bodySha256: string;
  /** Field 2, catalog_version, as every answer ends. */
  versionField: Span;
  /** ListDomains' whole answer: every domain's entry, then the version field. */
  listDomains: Span;
  /** GetCatalogSummary's whole answer. */
  summary: Span;
  domains: CompiledDomain[];
}

/** Encodes every answer of `catalog` (a validated, derived catalog) into the compiled form. */
export function compileCatalog(catalog: CatalogIndex, key: string): Buffer {
  const parts: Uint8Array[] = [];
  let size = 0;
  const add = (bytes: Uint8Array): Span => {
    parts.push(bytes);
    size += bytes.length;
    return [size - bytes.length, bytes.length];
  };
  const from = (first: Span, last: Span): Span => [first[0], last[0] + last[1] - first[0]];
  const catalogVersion = catalog.version;
  // An entry is a list answer of one record without a version (proto3 writes no empty string).
  const entry = <T>(encode: (list: { items: T[] }) => Uint8Array, item: T): Span => add(encode({ items: [item] }));
  const versionBytes = ListDomainsResponse.encode({ domains: [], catalogVersion }).finish();

  const domainRecords = catalog.listDomains();
  const domainEntries = domainRecords.map((d) =>
    entry((l) => ListDomainsResponse.encode({ domains: l.items, catalogVersion: "" }).finish(), d),
  );
  const versionField = add(versionBytes);
  const listDomains = domainEntries.length > 0 ? from(domainEntries[0]!, versionField) : versionField;
  const summary = add(GetCatalogSummaryResponse.encode({ ...catalog.summary(), catalogVersion }).finish());

  const domains = domainRecords.map(({ domainKey }, i): CompiledDomain => {
    const capabilities = catalog.listCapabilities(domainKey) ?? [];
    const capabilityEntries = capabilities.map((c) =>
      entry((l) => ListCapabilitiesResponse.encode({ capabilities: l.items, catalogVersion: "" }).finish(), c),
    );
    const capabilitiesEnd = add(versionBytes);
    let routesStart: Span | undefined;
    const routeEntries = capabilities.map(({ capabilityId }) => {
      const routes = catalog.listCapabilityRoutes(domainKey, capabilityId) ?? [];
      const span = add(ListCapabilityRoutesResponse.encode({ routes, catalogVersion: "" }).finish());
      routesStart ??= span;
      return span;
    });
    const routesEnd = add(versionBytes);
    return {
      domainKey,
      domain: domainEntries[i]!,
      capabilities: from(capabilityEntries[0] ?? capabilitiesEnd, capabilitiesEnd),
      routes: from(routesStart ?? routesEnd, routesEnd),
      capabilityAnswers: capabilities.map(({ capabilityId }, j) => ({
        capabilityId,
        capability: capabilityEntries[j]!,
        routes: routeEntries[j]!,
        contract: add(GetContractResponse.encode({ contract: catalog.getContract(domainKey, capabilityId), catalogVersion: "" }).finish()),
      })),
    };
  });
  const body = Buffer.concat(parts, size);
  const header: CompiledHeader = {
    format: COMPILED_FORMAT,
    key,
    version: catalogVersion,
    bodySha256: createHash("sha256").update(body).digest("hex"),
    versionField,
    listDomains,
    summary,
    domains,
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(headerBytes.length);
  return Buffer.concat([MAGIC, length, headerBytes, body]);
}

/** The header and body of a compiled artifact, or why it cannot be served (damaged, another format or key). */
export function readCompiled(bytes: Buffer, key: string): { header: CompiledHeader; body: Buffer } | { problem: string } {
  if (bytes.length < MAGIC.length + 4 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return { problem: "not a compiled catalog" };
  const headerEnd = MAGIC.length + 4 + bytes.readUInt32BE(MAGIC.length);
  if (headerEnd > bytes.length) return { problem: "truncated header" };
  let header: CompiledHeader;
  try {
    header = JSON.parse(bytes.toString("utf8", MAGIC.length + 4, headerEnd)) as CompiledHeader;
  } catch {
    return { problem: "unreadable header" };
  }
  if (header.format !== COMPILED_FORMAT) return { problem: `format ${String(header.format)}, not ${COMPILED_FORMAT}` };
  if (header.key !== key) return { problem: "compiled from other data" };
  const body = bytes.subarray(headerEnd);
  if (createHash("sha256").update(body).digest("hex") !== header.bodySha256) return { problem: "damaged body (checksum differs)" };
  return { header, body };
}
