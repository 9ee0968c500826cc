// The web console in real Chromium against a real system with real executions: each view renders the
// figures the REST API gives the same key, makes one request per API resource it shows (never one per
// row), has no serious or critical accessibility violation, and the playground's execute charges the
// price it showed exactly once however often the button is clicked. Screenshots of every view at a
// desktop and a phone width go to gateway/test-output/console/.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser, Page, Request } from "playwright-core";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { emailBody, execute, newUser, settled, type TestUser } from "./execute-helpers";
import { newKey } from "./limits-helpers";
import { consoleBuildDir } from "../src/routes/console";
import {
  apiRequestLine,
  launchChromium,
  recordApiRequests,
  SCREENSHOT_DIR,
  screenshotBoth,
  seriousViolations,
  VIEWPORTS,
} from "./console/browser";

jest.setTimeout(180_000);

// The browser's globals, as the callbacks page.evaluate runs see them (this file is compiled for Node).
declare const location: { hash: string; href: string };
declare function addEventListener(type: string, listener: () => void, options: { once: boolean }): void;
declare const document: { cookie: string; querySelector(selector: string): { textContent: string | null } | null };
declare const sessionStorage: { length: number; setItem(key: string, value: string): void };
declare const localStorage: { length: number };

/** The views screenshotted (and checked by axe), each at every width of VIEWPORTS. */
const VIEWS = ["sign-in", "overview", "activity", "execution", "catalog", "playground", "keys"];

const credits = (n: number) => `${n.toLocaleString("en-US")} cr`;

describe("the web console", () => {
  let sys: BackedSystem;
  let user: TestUser;
  let browser: Browser;
  let page: Page;
  let requests: string[];
  let executionId: string;
  const runStarted = Date.now();

  const rest = async <T = any>(path: string): Promise<T> => (await sys.authed(path, { key: user.key })).json() as Promise<T>;

  /** Opens a view by its hash and waits for `ready`; answers the API requests the view made. */
  async function open(hash: string, ready: string): Promise<string[]> {
    // The view's requests are those the browser started after the page handled the hash change, on the
    // page's own clock. The view left behind refreshes itself (Overview does every 5 s) until the change
    // unmounts it, and a refresh it started just before can be reported to this process after the change.
    // So the time is read in the page, in a hashchange listener added after the console's own: by then the
    // old view is gone (Preact renders in a microtask after the console's listener), and the new view's
    // effects, which make its request, run after the next paint.
    const made: Request[] = [];
    const record = (req: Request) => void (apiRequestLine(req, sys.gw.baseUrl) && made.push(req));
    page.on("request", record);
    // Opened again from itself, a view stays as it is (no hashchange): nothing to await.
    const reopened = (await page.evaluate(() => location.hash)) === hash;
    const changedAt = reopened
      ? await page.evaluate(() => performance.timeOrigin + performance.now())
      : await page.evaluate(
          (h) =>
            new Promise<number>((resolve) => {
              addEventListener("hashchange", () => resolve(performance.timeOrigin + performance.now()), { once: true });
              location.hash = h;
            }),
          hash,
        );
    // A request's start time is known once its response is (before that it reads 0).
    const ofThisView = (req: Request) => apiRequestLine(req, sys.gw.baseUrl) !== undefined && req.timing().startTime > changedAt;
    // The view's request is awaited until answered, not only its element: a view opened from one of the
    // same kind (Activity, then Activity filtered) finds the old element at once. It may have finished
    // before the time came back (recorded, its end known), or finish later.
    if (!reopened && !made.some((req) => ofThisView(req) && req.timing().responseEnd >= 0))
      await page.waitForEvent("requestfinished", ofThisView);
    await page.locator(ready).first().waitFor();
    await page.waitForLoadState("networkidle");
    page.off("request", record);
    return made
      .filter(ofThisView)
      .map((req) => apiRequestLine(req, sys.gw.baseUrl)!)
      .sort();
  }

  /**
   * The ids of the Activity table's rows once it shows `count` rows: a view opened from another
   * Activity view finds the old table at once, so its new rows are awaited, not read mid-render.
   */
  async function usageRowIds(count: number): Promise<(string | null)[]> {
    await page.waitForFunction(`document.querySelectorAll("[data-testid=usage-rows] tbody tr").length === ${count}`);
    return page.locator("[data-testid=usage-rows] tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-id")));
  }

  async function expectAccessibleAndShoot(name: string) {
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotBoth(page, name);
  }

  beforeAll(async () => {
    sys = await startBackedSystem();
    user = await newUser(sys, 10_000);
    for (const agent of ["alpha", "alpha", "beta"]) {
      const res = await execute(sys, user, "email", "send", emailBody(), {
        "agent-name": agent,
        "idempotency-key": `seed-${Math.random()}`,
      });
      expect(res.status).toBe(200);
      executionId ??= res.headers.get("execution-id")!;
    }
    await settled(sys, user.userId);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on("pageerror", (err) => console.error(`console page error: ${err.message}`));
    requests = recordApiRequests(page, sys.gw.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it("serves the console as cacheable static files under a strict Content-Security-Policy", async () => {
    const index = await fetch(`${sys.gw.baseUrl}/console/`);
    expect(index.status).toBe(200);
    const csp = index.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(index.headers.get("cache-control")).toBe("no-cache");
    const asset = /src="\.\/(assets\/[^"]+\.js)"/.exec(await index.text())![1];
    const js = await fetch(`${sys.gw.baseUrl}/console/${asset}`);
    expect([js.status, js.headers.get("cache-control")]).toEqual([200, "public, max-age=31536000, immutable"]);
    // The whole console's JavaScript, every file of the build (the entry and any chunk), stays within 150 KB gzipped.
    const assets = join(consoleBuildDir()!, "assets");
    const scripts = readdirSync(assets).filter((name) => name.endsWith(".js"));
    expect(scripts).toContain(asset.slice("assets/".length));
    const gzipped = scripts.reduce((sum, name) => sum + gzipSync(readFileSync(join(assets, name))).length, 0);
    expect(gzipped).toBeLessThan(150 * 1024);
    expect(gzipSync(Buffer.from(await js.arrayBuffer())).length).toBeLessThanOrEqual(gzipped);
    const bare = await fetch(`${sys.gw.baseUrl}/console`, { redirect: "manual" });
    expect([bare.status, bare.headers.get("location")]).toEqual([301, "/api/agentic-api/console/"]);
  });

  it("signs in with an API key kept in the tab's session storage only", async () => {
    await page.goto(`${sys.gw.baseUrl}/console/`);
    await page.locator("#apiKey").waitFor();
    await page.waitForLoadState("networkidle");
    // Signed out, the console asks the API nothing.
    expect(requests).toEqual([]);
    await expectAccessibleAndShoot("sign-in");
    await page.fill("#apiKey", user.key);
    await page.click("button[type=submit]");
    await page.locator("[data-testid=balance]").waitFor();
    expect(
      await page.evaluate(() => [document.cookie, location.href.includes("aak_"), sessionStorage.length, localStorage.length]),
    ).toEqual(["", false, 1, 0]);
  });

  it("Overview shows the balance, the reserved credits, the spend and the latest charges the API gives, from one request", async () => {
    requests.length = 0;
    await page.reload();
    await page.locator("[data-testid=usage-rows]").waitFor();
    await page.waitForLoadState("networkidle");
    expect(requests).toEqual(["GET /overview"]);
    const wallet = await rest("/wallet");
    const usage = await rest<{ items: Array<{ id: string; kind: string; creditsCharged: number }> }>("/usage?limit=100&kind=charge");
    const summary = await rest("/usage/summary");
    expect(await usageRowIds(usage.items.length)).toEqual(usage.items.map((u) => u.id));
    expect(await page.textContent("[data-testid=balance]")).toBe(credits(wallet.balanceCredits));
    expect(await page.textContent("[data-testid=reserved]")).toBe(credits(wallet.reservedCredits));
    const spent = usage.items.reduce((sum, u) => sum + u.creditsCharged, 0);
    expect(spent).toBeGreaterThan(0);
    expect(summary.totalCredits).toBe(spent);
    expect(await page.textContent("[data-testid=spent-30d]")).toBe(credits(spent));
    // The chart's accessible table has one row per day, today's with what was spent today.
    expect(await page.locator(".chart tbody tr").count()).toBe(30);
    expect(await page.textContent(".chart tbody tr:last-child td")).toBe(String(summary.byDay.at(-1).credits));
    await expectAccessibleAndShoot("overview");
  });

  it("Activity shows the page of rows the API gives, with the filters in the URL, and exports them as CSV", async () => {
    expect(await open("#/activity", "[data-testid=usage-rows]")).toEqual(["GET /usage"]);
    const all = await rest<{ items: Array<{ id: string }> }>("/usage?limit=50");
    expect(await usageRowIds(all.items.length)).toEqual(all.items.map((u) => u.id));
    await expectAccessibleAndShoot("activity");

    expect(await open("#/activity?agentName=alpha", "[data-testid=usage-rows]")).toEqual(["GET /usage"]);
    const alpha = await rest<{ items: Array<{ id: string }> }>("/usage?limit=50&agentName=alpha");
    expect(alpha.items).toHaveLength(2);
    expect(await usageRowIds(alpha.items.length)).toEqual(alpha.items.map((u) => u.id));

    const [download] = await Promise.all([page.waitForEvent("download"), page.click("text=Export CSV")]);
    const csv = readFileSync((await download.path())!, "utf8")
      .trim()
      .split("\n");
    expect(csv[0]).toMatch(/^id,createdAt,kind,/);
    expect(csv.slice(1).map((line) => line.split(",")[0])).toEqual(alpha.items.map((u) => u.id));
  });

  it("Execution shows the state, the charge and the attempts the API gives", async () => {
    expect(await open(`#/executions/${executionId}`, "[data-testid=attempts]")).toEqual([`GET /executions/${executionId}`]);
    const { execution } = await rest(`/executions/${executionId}`);
    expect(await page.textContent("[data-testid=execution-state]")).toBe(execution.state);
    expect(await page.textContent("[data-testid=execution-charged]")).toBe(credits(execution.creditsCharged));
    expect(await page.locator("[data-testid=attempts] li").count()).toBe(execution.result.body.decision.attempts.length);
    await expectAccessibleAndShoot("execution");
  });

  it("Catalog lists the domains and a domain's capabilities, one request each", async () => {
    expect(await open("#/catalog", ".tiles li")).toEqual(["GET /domains"]);
    const domains = (await (await fetch(`${sys.gw.baseUrl}/domains`)).json()) as unknown[];
    expect(await page.locator(".tiles li").count()).toBe(domains.length);
    await expectAccessibleAndShoot("catalog");
    expect(await open("#/catalog/email", ".tiles li")).toEqual(["GET /domains/email/capabilities"]);
    const caps = (await (await fetch(`${sys.gw.baseUrl}/domains/email/capabilities`)).json()) as unknown[];
    expect(await page.locator(".tiles li").count()).toBe(caps.length);
  });

  it("the playground charges exactly the price it showed, once, however often execute is clicked", async () => {
    expect(await open("#/playground/email/send", "#field-to")).toEqual(["GET /domains/email/capabilities/send/contract"]);
    const before = (await rest("/wallet")).balanceCredits;
    const usageBefore = (await rest("/usage?limit=100&kind=charge")).items.length;

    requests.length = 0;
    await page.click("text=Recommend (free)");
    await page.locator("[data-testid=candidates]").waitFor();
    await page.click("text=Execute…");
    const price = Number(await page.textContent("[data-testid=confirm-price]"));
    expect(price).toBeGreaterThan(0);
    await expectAccessibleAndShoot("playground");
    // Two clicks in the same task (before any re-render could disable the button) and a double click after.
    const pay = page.locator(".confirm button").first();
    await pay.evaluate((b: { click(): void }) => {
      b.click();
      b.click();
    });
    await page.locator("[data-testid=charged]").waitFor();
    await settled(sys, user.userId);

    expect(await page.textContent("[data-testid=charged]")).toBe(String(price));
    expect(requests.filter((r) => r.endsWith("/execute"))).toHaveLength(1);
    expect(requests.filter((r) => r.endsWith("/recommend"))).toHaveLength(1);
    expect((await rest("/wallet")).balanceCredits).toBe(before - price);
    expect((await rest("/usage?limit=100&kind=charge")).items.length).toBe(usageBefore + 1);

    // A route pinned in the form: the confirmation shows that route's price, and that is what is charged.
    await open("#/playground/email/send", "#field-routeKey");
    await page.click("text=Recommend (free)");
    await page.locator("[data-testid=candidates]").waitFor();
    const postmark = Number(
      (await page.locator("[data-testid=candidates] tr", { hasText: "email.send.postmark" }).locator("td.num").textContent())!.replace(
        /\D/g,
        "",
      ),
    );
    await page.fill("#field-routeKey", "email.send.postmark");
    await page.click("text=Execute…");
    expect(Number(await page.textContent("[data-testid=confirm-price]"))).toBe(postmark);
    const beforePinned = (await rest("/wallet")).balanceCredits;
    await page.locator(".confirm button").first().dblclick();
    await page.locator("[data-testid=charged]").waitFor();
    await settled(sys, user.userId);
    expect(await page.textContent("[data-testid=charged]")).toBe(String(postmark));
    expect((await rest("/wallet")).balanceCredits).toBe(beforePinned - postmark);

    await page.click("text=/See execution/");
    await page.locator("[data-testid=execution-state]").waitFor();
  });

  it("Keys and limits shows the calling key's user and policies from one request", async () => {
    expect(await open("#/keys", "[data-testid=user-id]")).toEqual(["GET /wallet"]);
    expect(await page.textContent("[data-testid=user-id]")).toBe(user.userId);
    await expectAccessibleAndShoot("keys");
  });

  it("refreshes a live view at most every 5 s, one request each time, while it is visible", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      // The page's clock is the test's: time moves only when the test moves it, so the gaps are the console's own.
      await context.clock.install();
      await context.addInitScript(() => {
        const sent: Array<{ at: number; url: string }> = ((globalThis as any).apiRequests = []);
        const realFetch = globalThis.fetch;
        globalThis.fetch = (input: any, init?: any) => {
          sent.push({ at: Date.now(), url: String(input) });
          return realFetch(input, init);
        };
      });
      const live = await context.newPage();
      const apiRequests = () => live.evaluate(() => (globalThis as any).apiRequests as Array<{ at: number; url: string }>);
      // How many API requests the browser has finished (answered or failed), counted outside the page's clock.
      let finished = 0;
      let waiter: { n: number; resolve: () => void } | undefined;
      const onFinished = (r: { url(): string }) => {
        if (!r.url().startsWith(sys.gw.baseUrl) || r.url().includes("/console/")) return;
        finished++;
        if (waiter && finished >= waiter.n) waiter.resolve();
      };
      live.on("requestfinished", onFinished);
      live.on("requestfailed", onFinished);
      /** Resolves once every request the page has sent so far (its own count) is finished. */
      const allAnswered = async () => {
        const n = (await apiRequests()).length;
        if (finished < n) await new Promise<void>((resolve) => (waiter = { n, resolve }));
      };
      await live.goto(`${sys.gw.baseUrl}/console/#/overview`);
      await live.fill("#apiKey", user.key);
      await live.click("button[type=submit]");
      await live.locator("[data-testid=balance]").waitFor();
      // The page's clock runs until paused, and pausing needs a moment still ahead of it: a second
      // ahead, asked again if a loaded machine let that second pass first.
      for (;;) {
        const ahead = (await live.evaluate(() => Date.now())) + 1_000;
        const paused = await live.clock.pauseAt(ahead).then(
          () => true,
          (error: Error) => {
            if (!/fast-forward to the past/.test(error.message)) throw error;
            return false;
          },
        );
        if (paused) break;
      }
      // 31 s of the page's time, a second at a time, each second's requests answered before the next.
      for (let second = 0; second < 31; second++) {
        await live.clock.runFor(1_000);
        await allAnswered();
        await live.locator("[data-testid=balance]").waitFor();
      }
      const sent = await apiRequests();
      const apiBase = new URL(sys.gw.baseUrl).pathname;
      expect(new Set(sent.map((r) => new URL(r.url, sys.gw.baseUrl).pathname.slice(apiBase.length)))).toEqual(new Set(["/overview"]));
      const gaps = sent.slice(1).map((r, i) => r.at - sent[i]!.at);
      // The first load, then one refresh per 5 s (each after the previous answer): never sooner, never stopped.
      expect(gaps.length).toBeGreaterThanOrEqual(5);
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(5_000);
      expect(Math.max(...gaps.slice(1))).toBeLessThanOrEqual(7_000);
    } finally {
      await context.close();
    }
  });

  it("waits out a 429 for its Retry-After, then shows the view", async () => {
    const limited = await newKey(sys, 500);
    await sys.ledger.client.setApiKeyLimits({ keyId: limited.keyId, limits: { requestsPerSecond: 1, burst: 1 } });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const throttledPage = await context.newPage();
    // Times from the browser's own clock (the request's start, and its answer's headers), not from when
    // Playwright's events reach this process: those arrive late by however busy the machine is.
    const answers: Array<{ path: string; status: number; request: Request; retryAfter: string | null }> = [];
    const sent: Array<{ path: string; request: Request }> = [];
    const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
    const startedAt = (request: Request) => request.timing().startTime;
    const answeredAt = (request: Request) => request.timing().startTime + request.timing().responseStart;
    throttledPage.on("request", (r) => sent.push({ path: pathOf(r.url()), request: r }));
    throttledPage.on("response", (r) =>
      answers.push({ path: pathOf(r.url()), status: r.status(), request: r.request(), retryAfter: r.headers()["retry-after"] ?? null }),
    );
    await throttledPage.goto(`${sys.gw.baseUrl}/console/`);
    // The key's one request a second is kept spent until the Overview's request is refused; then the console says it waits, and shows the figures.
    const refusedOnce = throttledPage.waitForResponse((r) => r.status() === 429);
    let draining = true;
    void refusedOnce.finally(() => (draining = false));
    const drain = (async () => {
      while (draining) await (await sys.authed("/wallet", { key: limited.key })).arrayBuffer();
    })();
    await throttledPage.fill("#apiKey", limited.key);
    await throttledPage.click("button[type=submit]");
    await refusedOnce;
    await drain;
    await throttledPage.locator("text=asked to slow down").waitFor();
    await throttledPage.getByText("No usage yet.").waitFor({ timeout: 20_000 });
    await throttledPage.waitForFunction(() => document.querySelector("[data-testid=spent-30d]")?.textContent === "0 cr", null, {
      timeout: 20_000,
    });
    expect(await throttledPage.textContent("[data-testid=balance]")).toBe(credits(500));
    expect(await throttledPage.locator("[role=alert]").count()).toBe(0);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      const retry = sent.find((s) => s.path === r.path && startedAt(s.request) >= answeredAt(r.request));
      expect(retry).toBeDefined();
      expect(startedAt(retry!.request) - answeredAt(r.request)).toBeGreaterThanOrEqual(Number(r.retryAfter ?? 1) * 1000 - 100);
    }
    await context.close();
  });

  it("shows an API error with its hint, and a refused key returns to sign-in", async () => {
    await open("#/executions/exe_doesnotexist", "[role=alert]");
    const refusal = await rest<{ code: string; error: string; hint: string }>("/executions/exe_doesnotexist");
    expect(refusal.code).toBe("EXECUTION_NOT_FOUND");
    const alert = await page.textContent("[role=alert]");
    for (const said of [refusal.code, refusal.error, refusal.hint]) expect(alert).toContain(said);
    await page.evaluate(() => sessionStorage.setItem("agentic.console.apiKey", "aak_RevokedOrWrongKey000000000000000000000000"));
    await page.evaluate(() => (location.hash = "#/keys"));
    await page.locator("#apiKey").waitFor();
    expect(await page.textContent("[role=alert]")).toContain("401");
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it("wrote a desktop and a phone screenshot of every view in this run", () => {
    for (const view of VIEWS)
      for (const width of Object.keys(VIEWPORTS)) {
        const file = join(SCREENSHOT_DIR, `${view}-${width}.png`);
        expect({ file, writtenThisRun: statSync(file).mtimeMs >= runStarted }).toEqual({ file, writtenThisRun: true });
      }
  });
});
