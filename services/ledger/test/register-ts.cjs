// Preload (`node --require ./register-ts.cjs child.ts`) that lets a child process run this
// workspace's TypeScript as it is, compiled by @swc/core with jest's settings (jest.preset.js), so a
// test can SIGKILL a real process running the real store code.
const { readFileSync } = require("node:fs");
const { transformSync } = require("@swc/core");

require.extensions[".ts"] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, "utf8"), {
    filename,
    jsc: { parser: { syntax: "typescript" }, target: "es2022" },
    module: { type: "commonjs" },
  });
  module._compile(code, filename);
};
