// Runs an admin CLI of scripts/ (`npm run ledger`, `npm run keys`) against a running system's ledger, as an
// operator does: LEDGER_ADDR and ADMIN_IDENTITY_KEY (this system's admin identity unless another key is given).
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT, type RunningSystem } from "./system";

const run = promisify(execFile);

export interface CliRun {
  /** Exit code: 0 on success. */
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `scripts/<script>.mjs ...args`; resolves its exit code and output (never rejects on a non-zero exit). */
export async function adminCli(
  sys: Pick<RunningSystem, "ports" | "adminIdentityKey">,
  script: "keys" | "ledger",
  args: string[],
  opts: { adminIdentityKey?: string } = {},
): Promise<CliRun> {
  const env = {
    ...process.env,
    LEDGER_ADDR: `127.0.0.1:${sys.ports.ledger!.port}`,
    ADMIN_IDENTITY_KEY: opts.adminIdentityKey ?? sys.adminIdentityKey,
  };
  try {
    const { stdout, stderr } = await run(process.execPath, [join(REPO_ROOT, "scripts", `${script}.mjs`), ...args], {
      env,
      timeout: 20_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw err;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/** The reconciliation report of the UTC days `from`..`to`, read with the admin identity (`npm run ledger -- reconcile --json`). */
export async function reconciliation(
  sys: Pick<RunningSystem, "ports" | "adminIdentityKey">,
  from: string,
  to: string,
): Promise<{ rows: Array<Record<string, unknown>>; losses: Array<Record<string, unknown>> }> {
  const { code, stdout, stderr } = await adminCli(sys, "ledger", ["reconcile", "--from", from, "--to", to, "--json"]);
  if (code !== 0) throw new Error(`npm run ledger -- reconcile exited ${code}: ${stderr}`);
  return JSON.parse(stdout);
}
