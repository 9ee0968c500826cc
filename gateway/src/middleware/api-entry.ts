// The first layer of the API router, in one layer: remember its base path, read a JSON body, rewrite
// capability aliases, in that order. Each express layer costs every request a dispatch, and under
// tracing a context switch and a route lookup more; these three run for every API request.
import express, { type RequestHandler } from "express";
import { capabilityAliases } from "./capability-aliases";
import { rememberBasePath } from "./observe";

export function apiEntry(bodyLimit: string): RequestHandler {
  const json = express.json({ limit: bodyLimit });
  const aliases = capabilityAliases();
  return (req, res, next) => {
    rememberBasePath(req, res, () => undefined);
    json(req, res, (err?: unknown) => {
      if (err) return next(err);
      // Called back once the body is read, outside express's try: what aliases throws goes to next, as express would pass it.
      try {
        aliases(req, res, () => undefined);
      } catch (thrown) {
        return next(thrown);
      }
      next();
    });
  };
}
