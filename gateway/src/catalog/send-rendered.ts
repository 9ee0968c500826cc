// Sends a rendered body (JSON unless its headers name another Content-Type) with its ETag, or 304 when
// the client already has it.
import type { Request, Response } from "express";
import type { RenderedBody } from "./rendered-cache";
import { isNotModified } from "./not-modified";

export function sendRendered(req: Request, res: Response, rendered: RenderedBody): void {
  res.setHeader("ETag", rendered.etag);
  // Clients may keep the answer but must revalidate: the catalog can change at any deploy.
  res.setHeader("Cache-Control", "no-cache");
  if (isNotModified(req.headers, rendered.etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  for (const [name, value] of Object.entries(rendered.headers ?? {})) res.setHeader(name, value);
  res.status(200).end(rendered.body);
}
