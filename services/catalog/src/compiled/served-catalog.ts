// The catalog as the service serves it: the compiled form (format.ts) behind two faces. `answers`
// gives the encoded wire bytes of each RPC's answer (what the gRPC server sends, as is); the
// CatalogIndex methods decode an answer for readers that want records (tests, tools), one at a time.
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
import type { CatalogFilter } from "@agentic/proto/catalog/v1";
import type { CatalogIndex, CatalogSummary } from "../domain";
import type { CompiledCapability, CompiledDomain, CompiledHeader, Span } from "./format";
import { filteredListsOf, type FilteredLists } from "./filtered-lists";
import { capabilityEntriesOf } from "./capability-entries";

/** Each RPC's answer as encoded bytes; undefined for an unknown domain or capability. */
export interface EncodedAnswers {
  listDomains(): Buffer;
  getCatalogSummary(): Buffer;
  getDomain(domainKey: string): Buffer | undefined;
  listCapabilities(domainKey: string): Buffer | undefined;
  listDomainRoutes(domainKey: string): Buffer | undefined;
  getCapability(domainKey: string, capabilityId: string): Buffer | undefined;
  listCapabilityRoutes(domainKey: string, capabilityId: string): Buffer | undefined;
  getContract(domainKey: string, capabilityId: string): Buffer | undefined;
  /** One page of the capabilities of every domain that pass `filter` (see filtered-lists.ts). */
  filterCapabilities(filter: CatalogFilter | undefined, offset: number, limit: number): Buffer;
  /** One page of the routes of every domain that pass `filter`. */
  filterRoutes(filter: CatalogFilter | undefined, offset: number, limit: number): Buffer;
  /** One page of every capability's entry, in catalog order (see capability-entries.ts). */
  listCapabilityEntries(offset: number, limit: number): Buffer;
}

export interface ServedCatalog extends CatalogIndex {
  readonly answers: EncodedAnswers;
  /** Bytes of the compiled answers held. */
  readonly compiledBytes: number;
  hasDomain(domainKey: string): boolean;
  hasCapability(domainKey: string, capabilityId: string): boolean;
}

/** Serves the compiled `body` described by `header` (readCompiled checked both). */
export function servedCatalogOf(header: CompiledHeader, body: Buffer): ServedCatalog {
  const domains = new Map<string, CompiledDomain>();
  const capabilities = new Map<string, CompiledCapability>();
  for (const domain of header.domains) {
    domains.set(domain.domainKey, domain);
    for (const capability of domain.capabilityAnswers)
      capabilities.set(capabilityPath(domain.domainKey, capability.capabilityId), capability);
  }
  // A view into the body, never a copy: the answer is sent as it was compiled.
  const bytes = (span: Span): Buffer => body.subarray(span[0], span[0] + span[1]);
  const capability = (domainKey: string, capabilityId: string) => capabilities.get(capabilityPath(domainKey, capabilityId));
  const versionField = bytes(header.versionField);
  // Built on the first filtered read: a catalog that is never listed across domains never pays for it.
  let filtered: FilteredLists | undefined;
  const lists = () => (filtered ??= filteredListsOf(header.domains, bytes, versionField));
  const entriesPage = capabilityEntriesOf(header.domains, bytes, versionField);
  const answers: EncodedAnswers = {
    listDomains: () => bytes(header.listDomains),
    getCatalogSummary: () => bytes(header.summary),
    getDomain: (domainKey) => withVersion(domains.get(domainKey)?.domain),
    listCapabilities: (domainKey) => whole(domains.get(domainKey)?.capabilities),
    listDomainRoutes: (domainKey) => whole(domains.get(domainKey)?.routes),
    getCapability: (domainKey, capabilityId) => withVersion(capability(domainKey, capabilityId)?.capability),
    listCapabilityRoutes: (domainKey, capabilityId) => withVersion(capability(domainKey, capabilityId)?.routes),
    getContract: (domainKey, capabilityId) => withVersion(capability(domainKey, capabilityId)?.contract),
    filterCapabilities: (filter, offset, limit) => lists().capabilities(filter, offset, limit),
    filterRoutes: (filter, offset, limit) => lists().routes(filter, offset, limit),
    listCapabilityEntries: entriesPage,
  };
  /** A whole answer as compiled. */
  function whole(span: Span | undefined): Buffer | undefined {
    return span && bytes(span);
  }
  /** One record's entry (or one capability's routes) and the version field: a small copy per answer. */
  function withVersion(span: Span | undefined): Buffer | undefined {
    return span && Buffer.concat([bytes(span), versionField]);
  }
  const decoded = <T>(answer: Buffer | undefined, decode: (b: Buffer) => T): T | undefined => (answer ? decode(answer) : undefined);

  return {
    version: header.version,
    answers,
    compiledBytes: body.length,
    hasDomain: (domainKey) => domains.has(domainKey),
    hasCapability: (domainKey, capabilityId) => capability(domainKey, capabilityId) !== undefined,
    listDomains: () => ListDomainsResponse.decode(answers.listDomains()).domains,
    getDomain: (domainKey) => decoded(answers.getDomain(domainKey), (b) => GetDomainResponse.decode(b).domain),
    listCapabilities: (domainKey) => decoded(answers.listCapabilities(domainKey), (b) => ListCapabilitiesResponse.decode(b).capabilities),
    getCapability: (domainKey, id) => decoded(answers.getCapability(domainKey, id), (b) => GetCapabilityResponse.decode(b).capability),
    listDomainRoutes: (domainKey) => decoded(answers.listDomainRoutes(domainKey), (b) => ListDomainRoutesResponse.decode(b).routes),
    listCapabilityRoutes: (domainKey, id) =>
      decoded(answers.listCapabilityRoutes(domainKey, id), (b) => ListCapabilityRoutesResponse.decode(b).routes),
    getContract: (domainKey, id) => decoded(answers.getContract(domainKey, id), (b) => GetContractResponse.decode(b).contract),
    summary: (): CatalogSummary => {
      const { providers, enabledProviders, products } = GetCatalogSummaryResponse.decode(answers.getCatalogSummary());
      return { providers, enabledProviders, products };
    },
  };
}

const capabilityPath = (domainKey: string, capabilityId: string): string => `${domainKey}/${capabilityId}`;
