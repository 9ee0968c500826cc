// `npm start` in development serves the console from its Vite dev server through the gateway: the page,
// its source modules and hot reload's websocket all on the gateway's one origin, so an edit under
// console/src shows at once. The system is started as `npm start` starts it (scripts/start.mjs).
import { startSystem, type RunningSystem } from "./support/system";

jest.setTimeout(180_000);

describe("npm start's console in development", () => {
  let sys: RunningSystem;

  beforeAll(async () => {
    sys = await startSystem({ CONSOLE_DEV: "1" }, 150_000);
  });
  afterAll(() => sys?.stop());

  it("is the dev server's page and source modules, through the gateway", async () => {
    const basePath = new URL(sys.baseUrl).pathname;
    const page = await fetch(`${sys.baseUrl}/console/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`${basePath}/console/@vite/client`);
    expect(html).toContain(`${basePath}/console/src/main.tsx`);
    const main = await fetch(`${sys.baseUrl}/console/src/main.tsx`);
    expect([main.status, main.headers.get("content-type")]).toEqual([200, expect.stringContaining("javascript")]);
    expect(await main.text()).toContain("render");
  });

  it("carries hot reload's websocket through the gateway", async () => {
    const client = await (await fetch(`${sys.baseUrl}/console/@vite/client`)).text();
    const token = /const wsToken = "([^"]+)"/.exec(client)?.[1];
    expect(token).toEqual(expect.any(String));
    const socket = new WebSocket(`${sys.baseUrl.replace(/^http/, "ws")}/console/?token=${token}`, "vite-hmr");
    try {
      const first = await new Promise<unknown>((resolve, reject) => {
        socket.onmessage = (event) => resolve(JSON.parse(String(event.data)));
        socket.onerror = () => reject(new Error("the hot-reload websocket failed"));
      });
      expect(first).toMatchObject({ type: "connected" });
    } finally {
      socket.close();
    }
  });
});
