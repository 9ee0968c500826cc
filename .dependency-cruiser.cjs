// Import-graph checks the linter cannot make file by file: no import cycle anywhere in production
// code, and no workspace reaching into another workspace's source by relative path (a workspace is
// used through its package name, declared in its package.json, so turbo knows what a change affects).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Modules that import each other in a circle cannot be read, tested or loaded one at a time.",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-reaching-into-other-workspaces",
      severity: "error",
      comment: "Import another workspace by its package name, never by a relative path into its folder.",
      from: { path: "^(gateway|services/[^/]+|packages/[^/]+|sandbox|e2e)/" },
      to: {
        path: "^(gateway|services/[^/]+|packages/[^/]+|sandbox|e2e)/",
        pathNot: ["^$1/", "node_modules", "^proto/gen/"],
        dependencyTypes: ["local"],
      },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["/dist/", "proto/gen"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};
