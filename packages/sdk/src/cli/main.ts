#!/usr/bin/env node
// The `agentic-api` command (see `agentic-api --help`): the process around run(), which does the work.
import { run } from "./run";

run(process.argv.slice(2), process).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`unexpected: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = 1;
  },
);
