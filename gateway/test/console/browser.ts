// Debian's chromium driven by playwright-core, for the console's end-to-end tests: a page that records
// every request it makes to the API, and helpers for the accessibility check and screenshots.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page, type Request } from "playwright-core";
import { AxeBuilder } from "@axe-core/playwright";

/** Where the test run writes its screenshots (gitignored). */
export const SCREENSHOT_DIR = join(__dirname, "..", "..", "test-output", "console");

export const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

/** An API request as the tests name it (method and path after the API base path); undefined for the console's own files and other hosts. */
export function apiRequestLine(req: Request, apiBase: string): string | undefined {
  const url = new URL(req.url());
  if (!url.href.startsWith(apiBase) || url.pathname.includes("/console/")) return undefined;
  return `${req.method()} ${url.pathname.slice(new URL(apiBase).pathname.length)}`;
}

/** The API requests a page made (method and path after the API base path), the console's own files left out. */
export function recordApiRequests(page: Page, apiBase: string): string[] {
  const seen: string[] = [];
  page.on("request", (req) => {
    const line = apiRequestLine(req, apiBase);
    if (line) seen.push(line);
  });
  return seen;
}

/** The serious and critical accessibility violations axe-core finds on the page, by rule id. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** Screenshots the page at desktop and phone width as <name>-desktop.png and <name>-phone.png. */
export async function screenshotBoth(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}
