// GET /console: the web console (the @agentic/console workspace's Vite build) as static files. Hashed
// assets are cached for a year (their names change with their content), index.html is revalidated on
// every load, and every file carries a strict Content-Security-Policy: only this origin's scripts,
// styles and API, nothing inline, no frames. The console calls the public REST API like any client.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import express, { Router } from "express";
import { createProxyMiddleware } from "http-proxy-middleware";
import { AppError } from "@agentic/platform";

/** Where the console's build is: @agentic/console's dist/ (npm run build writes it). */
export function consoleBuildDir(): string | undefined {
  try {
    const dir = join(dirname(require.resolve("@agentic/console/package.json")), "dist");
    return existsSync(join(dir, "index.html")) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** The console's policy: its own scripts and styles only (none inline), its own API, no frames, no plugins. */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** In development: the console's Vite dev server, whose module and HMR URLs need scripts and sockets of its own origin. */
function devServerCsp(devServerUrl: string): string {
  const vite = new URL(devServerUrl);
  return CONSOLE_CSP.replace("connect-src 'self'", `connect-src 'self' ws://${vite.host}`).replace(
    "style-src 'self'",
    "style-src 'self' 'unsafe-inline'",
  );
}

export interface ConsoleRoutesOptions {
  /** The console's build (default: @agentic/console's dist/). */
  dir?: string;
  /** Development: proxy to this Vite dev server (started with the same base path) instead of serving `dir`. */
  devServerUrl?: string;
  /** Where the router is mounted (`<API base>/console`): the hot-reload websockets under it go to the dev server too. */
  mountPath?: string;
}

export function consoleRoutes(opts: ConsoleRoutesOptions = {}): Router {
  const router = Router();
  if (opts.devServerUrl) {
    const csp = devServerCsp(opts.devServerUrl);
    router.use((_req, res, next) => {
      res.setHeader("Content-Security-Policy", csp);
      next();
    });
    // The dev server serves under the same base path, so it gets the path as the client sent it. Its hot-reload
    // websocket (an upgrade, which bypasses express: req.url is the whole path there) is proxied too, so the
    // page needs no origin but the gateway's.
    const mountPath = opts.mountPath;
    router.use(
      createProxyMiddleware<express.Request>({
        target: opts.devServerUrl,
        ws: mountPath !== undefined,
        pathFilter: (_path, req) => mountPath === undefined || (req.originalUrl ?? req.url ?? "").startsWith(`${mountPath}/`),
        pathRewrite: (_path, req) => req.originalUrl ?? req.url ?? "/",
      }),
    );
    return router;
  }
  const dir = "dir" in opts ? opts.dir : consoleBuildDir();
  router.use((req, res, next) => {
    res.setHeader("Content-Security-Policy", CONSOLE_CSP);
    // Relative asset links (./assets/…) need the trailing slash.
    if (req.path === "/" && !req.originalUrl.split("?")[0]!.endsWith("/")) return res.redirect(301, `${req.originalUrl.split("?")[0]}/`);
    next();
  });
  if (!dir) {
    router.use(() => {
      throw new AppError(
        "not_found",
        "CONSOLE_NOT_BUILT",
        "the console is not built",
        "Run `npm run build` (or `npm start`), then open /console again.",
      );
    });
    return router;
  }
  router.use(
    express.static(dir, {
      index: "index.html",
      redirect: false,
      fallthrough: true,
      setHeaders(res, path) {
        res.setHeader("Cache-Control", path.includes(`${join("dist", "assets")}`) ? "public, max-age=31536000, immutable" : "no-cache");
      },
    }),
  );
  return router;
}
