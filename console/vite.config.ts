// Builds the console as static files for the gateway to serve under /console (no CDN: every byte ships in dist/).
import { defineConfig } from "vite";
import preact from "@preact/preset-vite";

export default defineConfig({
  // Relative asset links, so the gateway may serve it under any API_BASE_PATH.
  base: "./",
  plugins: [preact()],
  build: {
    outDir: "dist",
    // The gateway's Content-Security-Policy allows no inline script: keep the module preload polyfill out of index.html.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});
