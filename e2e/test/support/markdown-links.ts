// The relative links of a Markdown page and the anchors its headings make, as GitHub renders them:
// what the docs test needs to tell a link that leads somewhere from one that leads nowhere.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

export interface MarkdownLink {
  /** The link as written, e.g. `../services/ledger/README.md#stores`. */
  target: string;
  /** 1-based line of the page. */
  line: number;
}

const FENCE = /^\s*(```|~~~)/;

/** The lines outside fenced code blocks, with their 1-based numbers (code is not a link). */
function proseLines(markdown: string): Array<{ text: string; line: number }> {
  const lines: Array<{ text: string; line: number }> = [];
  let inFence = false;
  markdown.split("\n").forEach((text, i) => {
    if (FENCE.test(text)) inFence = !inFence;
    else if (!inFence) lines.push({ text, line: i + 1 });
  });
  return lines;
}

/** Every inline link and image of the page, outside code; absolute URLs (`https:`, `mailto:`) included. */
export function linksOf(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { text, line } of proseLines(markdown)) {
    const prose = text.replace(/`[^`]*`/g, (code) => " ".repeat(code.length));
    for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1]!, line });
    }
  }
  return links;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors the page's headings make (a repeated heading gets `-1`, `-2`, …) and its `<a id>`s. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!heading) continue;
    const base = headingAnchor(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  for (const match of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

/** The page's relative links that lead nowhere: a missing file, or a missing heading of a Markdown file. */
export function brokenLinks(repoRoot: string, page: string): string[] {
  const broken: string[] = [];
  for (const { target, line } of linksOf(readFileSync(join(repoRoot, page), "utf8"))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not a file of this repository
    const [path = "", anchor] = target.split("#");
    const file = path ? join(repoRoot, dirname(page), decodeURIComponent(path)) : join(repoRoot, page);
    const where = `${page}:${line} → ${target}`;
    if (!existsSync(file)) broken.push(`${where}: no file ${relative(repoRoot, file)}`);
    else if (anchor && file.endsWith(".md") && statSync(file).isFile() && !anchorsOf(readFileSync(file, "utf8")).has(anchor)) {
      broken.push(`${where}: no heading #${anchor} in ${relative(repoRoot, file)}`);
    }
  }
  return broken;
}

/** The test files a page's "## Invariants…" section names in code spans, e.g. `test/consistency.ts` or `decide-hold.test.ts`. */
export function testFilesNamedByInvariants(markdown: string): string[] {
  const start = markdown.search(/^## Invariants/m);
  if (start < 0) return [];
  const end = markdown.indexOf("\n## ", start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  const named = [...section.matchAll(/`([\w./-]+\.test\.(?:ts|mjs))`/g)].map((m) => m[1]!);
  return [...new Set(named)];
}
