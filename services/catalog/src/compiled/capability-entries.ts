// ListCapabilityEntries' pages, cut from the compiled answers: an entry is its capability's compiled
// entry (field 1), its routes' entries and its contract's entry, each a field 1 as compiled, with the
// one-byte tag turned into field 2 or 3. Nothing is decoded or encoded again, so a reader of the whole
// catalog (a router building its intent index) costs the catalog a copy of bytes per page.
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { ListCapabilityEntriesResponse } from "@agentic/proto/catalog/v1";
import type { CompiledCapability, CompiledDomain, Span } from "./format";

/** A page stops before the entry that would take it past this (a page always holds one entry). */
export const ENTRIES_PAGE_MAX_BYTES = 1 << 20;

const FIELD_1 = (1 << 3) | WireType.LengthDelimited;
const ROUTES_FIELD = (2 << 3) | WireType.LengthDelimited;
const CONTRACT_FIELD = (3 << 3) | WireType.LengthDelimited;

/** ListCapabilityEntries' answer for `offset` and `limit`, over the capabilities of `domains` in catalog order. */
export function capabilityEntriesOf(
  domains: readonly CompiledDomain[],
  bytes: (span: Span) => Buffer,
  versionField: Buffer,
  maxPageBytes = ENTRIES_PAGE_MAX_BYTES,
): (offset: number, limit: number) => Buffer {
  const all: readonly CompiledCapability[] = domains.flatMap((d) => d.capabilityAnswers);
  const total = ListCapabilityEntriesResponse.encode({ entries: [], catalogVersion: "", total: all.length }).finish();

  const entryOf = (c: CompiledCapability): Buffer =>
    Buffer.concat([bytes(c.capability), retagged(bytes(c.routes), ROUTES_FIELD), retagged(bytes(c.contract), CONTRACT_FIELD)]);

  return (offset, limit) => {
    const page = new BinaryWriter();
    let size = 0;
    for (const c of all.slice(offset, offset + limit)) {
      const entry = entryOf(c);
      if (size > 0 && size + entry.length > maxPageBytes) break;
      page.uint32(FIELD_1).bytes(entry);
      size += entry.length;
    }
    return Buffer.concat([page.finish(), versionField, total]);
  };
}

/** `list`'s field-1 entries (each tagged with one byte) with `tag` in its place. */
function retagged(list: Buffer, tag: number): Buffer {
  const out = Buffer.from(list);
  const reader = new BinaryReader(list);
  while (reader.pos < reader.len) {
    const start = reader.pos;
    const [field, wireType] = reader.tag();
    if (field !== 1 || wireType !== WireType.LengthDelimited || reader.pos !== start + 1)
      throw new Error(`compiled entry at ${start} is not field 1 with a one-byte tag`);
    reader.skip(wireType);
    out[start] = tag;
  }
  return out;
}
