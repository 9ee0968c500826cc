// Parses one catalog file as YAML (anchors and merge keys allowed, duplicate keys refused) and finds
// the line of any field path in it, following aliases and merge keys. The values come from js-yaml
// (a tenth of the time and memory of a full document); the document with its source positions, and
// the exact messages of a file that does not parse, come from `yaml`, read only when a line or a
// syntax error is needed, so loading a large catalog never holds a document per file.
import * as jsYaml from "js-yaml";
import { Document, LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseDocument, type Node } from "yaml";
import type { FieldPath, ParsedFile } from "../domain";

/** YAML 1.2's core schema (dates stay strings, as `yaml` reads them) with merge keys (js-yaml's own type, not in its typings). */
const SCHEMA = jsYaml.CORE_SCHEMA.extend({ implicit: [(jsYaml as unknown as { types: { merge: jsYaml.Type } }).types.merge] });

/** Most aliases a file may use (a file of nested aliases could otherwise expand without bound). */
const MAX_ALIASES = 10_000;

/** Parses `text`; `value` is undefined when it has syntax errors. */
export function parseYamlFile(text: string): ParsedFile {
  const aliases = text.match(/(?:^|[\s[{,])\*[^\s,\]}]+/g)?.length ?? 0;
  if (aliases <= MAX_ALIASES) {
    try {
      const value: unknown = jsYaml.load(text, { schema: SCHEMA });
      return { syntaxErrors: [], value, locate: (path) => parseFully(text).locate(path) };
    } catch {
      // Not valid for js-yaml: `yaml` says why, in the catalog's own words.
    }
  }
  return parseFully(text);
}

/** The whole document (positions, aliases, errors) with `yaml`. */
function parseFully(text: string): ParsedFile {
  const lines = new LineCounter();
  // uniqueKeys rejects duplicate keys in one mapping; merge enables YAML `<<: *anchor` for shared blocks.
  const doc = parseDocument(text, { lineCounter: lines, merge: true, uniqueKeys: true });
  const syntaxErrors = doc.errors.map((e) => ({
    message: `YAML syntax error: ${firstLine(e.message)}`,
    ...(e.linePos ? { line: e.linePos[0].line } : {}),
  }));
  return {
    syntaxErrors,
    value: syntaxErrors.length > 0 ? undefined : doc.toJS({ maxAliasCount: 10_000 }),
    locate: (path) => locate(doc, lines, path),
  };
}

/** Best-effort line of a field path. */
function locate(doc: Document, lines: LineCounter, path: FieldPath): number | undefined {
  if (path.length === 0) return undefined; // a whole-file problem has no line
  let node: unknown = doc.contents;
  let found: Node | undefined = isNode(node) ? node : undefined;
  for (const segment of path) {
    node = step(doc, node, segment);
    if (!isNode(node)) break;
    found = node;
  }
  const offset = found?.range?.[0];
  return offset === undefined ? undefined : lines.linePos(offset).line;
}

function step(doc: Document, node: unknown, segment: string | number): unknown {
  if (isAlias(node)) node = node.resolve(doc);
  if (isSeq(node) && typeof segment === "number") return node.items[segment];
  if (!isMap(node)) return undefined;
  for (const pair of node.items) {
    if (isPair(pair) && isScalar(pair.key) && typeof pair.key.value !== "symbol" && String(pair.key.value) === String(segment)) {
      return pair.value ?? pair.key;
    }
  }
  for (const pair of node.items) {
    // yaml keeps a merge key's source text "<<" (its value is a symbol).
    if (isPair(pair) && isScalar(pair.key) && pair.key.source === "<<") {
      const hit = step(doc, pair.value, segment);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && "range" in value;
}

/** yaml's messages end with a code excerpt; keep the first line without its trailing colon. */
function firstLine(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/:\s*$/, "");
}
