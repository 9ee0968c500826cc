// One linter for the whole repository. Beyond a few correctness rules, it holds the layering every
// service follows (docs/architecture.md): a service's domain/ is pure, so it never imports a
// transport, a store, a bus, telemetry or the service's own adapters. Types may come from anywhere.
import tseslint from "typescript-eslint";

/** Packages whose runtime a domain file must not load. */
const NOT_IN_DOMAIN = [
  "@grpc/grpc-js",
  "nats",
  "mongodb",
  "express",
  "http-proxy-middleware",
  "prom-client",
  "pino",
  "yaml",
  "viem",
  "node:fs",
  "node:fs/promises",
  "node:http",
  "node:https",
  "node:net",
  "node:sqlite",
  "node:child_process",
].map((name) => ({ name, message: "domain/ is pure: reach this through a port that app.ts wires in." }));

/** May be imported as types only: their modules load gRPC. */
const TYPES_ONLY_IN_DOMAIN = [
  "@agentic/platform",
  "@agentic/clients",
  ...["catalog", "executor", "ledger", "router"].map((p) => `@agentic/proto/${p}/v1`),
].map((name) => ({
  name,
  allowTypeImports: true,
  message: "domain/ is pure: import types only (values from @agentic/platform/core).",
}));

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "proto/gen/**", "packages/*/src/generated/**", "coverage/**", "bench/results/**"] },
  {
    files: ["**/*.ts", "**/*.mjs", "**/*.js", "**/*.cjs"],
    languageOptions: { parser: tseslint.parser },
    plugins: { "@typescript-eslint": tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      "prefer-const": "error",
      "no-debugger": "error",
      // Prettier wraps code at 140; a longer line is text it cannot break (a vendor's message, a line
      // of generated Markdown), so only literal text may pass 200 characters.
      "max-len": [
        "error",
        { code: 200, comments: 200, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
      "no-duplicate-imports": ["error", { allowSeparateTypeImports: true }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none", varsIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["services/*/src/domain/**/*.ts", "packages/ranking/src/domain/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [...NOT_IN_DOMAIN, ...TYPES_ONLY_IN_DOMAIN],
          patterns: [
            { group: ["@opentelemetry/*"], message: "domain/ is pure: tracing goes through a port." },
            {
              group: ["../*", "!../domain", "!../domain/*"],
              message:
                "domain/ sits below the service's adapters (rpc/, bus/, store/, providers/, ...): declare a port in domain/ports.ts.",
            },
          ],
        },
      ],
    },
  },
);
