#!/usr/bin/env node
// npm links a package's bins at `npm install`, which in a fresh clone runs before the build: a bin
// pointing into dist/ is then skipped and `npx agentic-api-mcp` asks the public registry instead. So
// the bin is this committed file, and it runs the built program.
require("../dist/main.js");
