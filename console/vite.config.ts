// Builds the console as static files for the gateway to serve under /console (no CDN: every byte ships in dist/).
import { defineConfig } from "vite";
import preact from "@preact/preset-vite";

/** The dev server's port: the gateway proxies <API base>/console to it (CONSOLE_DEV_SERVER_URL). */
const DEV_PORT = Number(process.env.CONSOLE_DEV_PORT ?? 5173);

export default defineConfig(({ command }) => ({
  // The build links its assets relatively, so the gateway may serve it under any API_BASE_PATH; the dev
  // server is reached through the gateway, so it serves under the gateway's path for the console.
  base: command === "serve" ? `${process.env.API_BASE_PATH ?? "/api/agentic-api"}/console/` : "./",
  server: {
    host: "127.0.0.1",
    port: DEV_PORT,
    strictPort: true,
    // Hot reload's websocket goes where the page came from, the gateway, which proxies it here (one origin).
  },
  plugins: [preact()],
  build: {
    outDir: "dist",
    // The gateway's Content-Security-Policy allows no inline script: keep the module preload polyfill out of index.html.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
}));
