// In development the gateway proxies /console to the console's Vite dev server (CONSOLE_DEV_SERVER_URL), hot
// reload's websocket included, so the console and the API share one origin while edits show at once; outside development the option is
// ignored and the build is served. A real Vite dev server, started here on a free port.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { freePort, waitFor } from "@agentic/testing";
import { BASE_PATH, startTestGateway, type TestGateway } from "./harness";
import { launchChromium } from "./console/browser";

const CONSOLE_DIR = join(__dirname, "..", "..", "console");
const VITE = join(__dirname, "..", "..", "node_modules", "vite", "bin", "vite.js");
const NOWHERE = "127.0.0.1:9";

describe("the console's dev server through the gateway", () => {
  let vite: ChildProcess;
  let viteUrl: string;
  const gateways: TestGateway[] = [];

  beforeAll(async () => {
    const port = await freePort();
    viteUrl = `http://127.0.0.1:${port}`;
    vite = spawn(process.execPath, [VITE, "--clearScreen", "false"], {
      cwd: CONSOLE_DIR,
      env: { ...process.env, CONSOLE_DEV_PORT: String(port), API_BASE_PATH: BASE_PATH },
      stdio: "ignore",
    });
    await waitFor(async () => (await fetch(`${viteUrl}${BASE_PATH}/console/`).catch(() => undefined))?.ok === true, { timeoutMs: 20_000 });
  });
  afterAll(async () => {
    for (const gw of gateways) await gw.stop();
    if (vite?.exitCode === null) {
      const exited = new Promise((resolve) => vite.once("exit", resolve));
      vite.kill("SIGTERM");
      await exited;
    }
  });

  it("serves the dev server's console and its source modules on the gateway's origin", async () => {
    const gw = await startTestGateway({ catalogAddress: NOWHERE, devRoutes: true, consoleDevServerUrl: viteUrl });
    gateways.push(gw);
    const index = await fetch(`${gw.baseUrl}/console/`);
    expect(index.status).toBe(200);
    const html = await index.text();
    expect(html).toContain(`${BASE_PATH}/console/@vite/client`);
    expect(index.headers.get("content-security-policy")).toContain(`connect-src 'self' ws://127.0.0.1:`);
    const main = await fetch(`${gw.baseUrl}/console/src/main.tsx`);
    expect([main.status, main.headers.get("content-type")]).toEqual([200, expect.stringContaining("javascript")]);
    expect(await main.text()).toContain("render");

    // And it runs in a browser under the gateway's policy: the sign-in form renders, nothing is refused.
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      // Errors other than a failed load (the browser's own /favicon.ico is not the console's), and every failed load but that one.
      page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && problems.push(m.text()));
      page.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && problems.push(`${r.status()} ${r.url()}`));
      page.on("pageerror", (e) => problems.push(e.message));
      // Hot reload's websocket goes to the gateway too, which proxies it to the dev server (its first message: connected).
      const hotReload = page
        .waitForEvent("websocket")
        .then(
          (socket) =>
            new Promise<{ url: string; first: string }>((resolve) =>
              socket.once("framereceived", (frame) => resolve({ url: socket.url(), first: String(frame.payload) })),
            ),
        );
      await page.goto(`${gw.baseUrl}/console/`);
      await page.locator("#apiKey").waitFor({ timeout: 20_000 });
      const socket = await hotReload;
      expect(new URL(socket.url).host).toBe(new URL(gw.baseUrl).host);
      expect(JSON.parse(socket.first)).toMatchObject({ type: "connected" });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("ignores the dev server outside development and serves the build", async () => {
    const gw = await startTestGateway({ catalogAddress: NOWHERE, devRoutes: false, consoleDevServerUrl: viteUrl });
    gateways.push(gw);
    const html = await (await fetch(`${gw.baseUrl}/console/`)).text();
    expect(html).toContain("./assets/");
    expect(html).not.toContain("@vite/client");
  });
});
