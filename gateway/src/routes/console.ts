// GET /console: the web console (the @agentic/console workspace's Vite build) as static files. Hashed
// assets are cached for a year (their names change with their content), index.html is revalidated on
// every load, and every file carries a strict Content-Security-Policy: only this origin's scripts,
// styles and API, nothing inline, no frames. The console calls the public REST API like any client.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import express, { Router } from "express";
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

export function consoleRoutes(dir: string | undefined = consoleBuildDir()): Router {
  const router = Router();
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
