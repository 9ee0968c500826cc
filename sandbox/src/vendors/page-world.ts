// The sandbox's web, as the page readers (jina, firecrawl) see it: a page's size and a PDF's page
// count come from its URL, so tests can point a vendor at a huge page or a long document the way a
// caller could. A path segment `bytes-<n>` makes the page's main text n bytes long; `pages-<n>` makes
// a PDF n pages long (3 otherwise). A host starting with `protected.` blocks plain proxies.

/** Pages of a PDF whose URL names none. */
const DEFAULT_PDF_PAGES = 3;

/** Whether the URL is a PDF document. */
export function isPdf(url: URL): boolean {
  return url.pathname.toLowerCase().endsWith(".pdf");
}

/** The page count of a PDF URL (`pages-<n>` in its path), else DEFAULT_PDF_PAGES. */
export function pdfPages(url: URL): number {
  const n = /(?:^|\/)pages-(\d{1,5})(?:[/.]|$)/.exec(url.pathname)?.[1];
  return n === undefined ? DEFAULT_PDF_PAGES : Math.max(1, Number(n));
}

/** Text padded to the size the URL asks for (`bytes-<n>` in its path, at most 16 MiB), else unchanged. */
export function sizedText(url: URL, text: string): string {
  const n = /(?:^|\/)bytes-(\d{1,8})(?:[/.]|$)/.exec(url.pathname)?.[1];
  if (n === undefined) return text;
  const bytes = Math.min(Number(n), 16 * 1024 * 1024);
  if (bytes <= text.length) return text;
  const line = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ";
  return (text + "\n\n" + line.repeat(Math.ceil(bytes / line.length))).slice(0, bytes);
}

/** Whether the site blocks requests that do not come through an enhanced (stealth) proxy. */
export function blocksPlainProxies(url: URL): boolean {
  return url.hostname.startsWith("protected.");
}
