// The committed generated types match their sources: the gateway's OpenAPI document and the
// catalog's contracts (both built). A change to either without `npm run generate -w packages/sdk` fails here.
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";

it("src/generated/ is what npm run generate would write", async () => {
  const result = await new Promise<{ code: number; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      [join(dirname(require.resolve("@agentic-api/sdk/package.json")), "scripts", "generate.mjs"), "--check"],
      (err, _stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
    ),
  );
  expect(result).toEqual({ code: 0, stderr: "" });
});
