// The package's version, as the MCP server reports it in initialize (read at run time: package.json sits outside src/).
export const PACKAGE_VERSION: string = (require("../package.json") as { version: string }).version;
