// The admin CLIs' connection to a running ledger (npm run keys, npm run ledger): the admin identity,
// the client, and one way to call an RPC and turn its refusal into a readable exit.
// LEDGER_ADDR (host:port) says where the ledger listens; default 127.0.0.1:50054 (`npm start`).
// ADMIN_IDENTITY_KEY is the admin's private key (base64 PKCS#8 Ed25519, listed as admin= in the
// ledger's TRUSTED_SERVICE_KEYS), else the development key `npm start` writes to .data/admin-identity.key.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const DEV_ADMIN_KEY_FILE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", ".data", "admin-identity.key");

/**
 * Connects as admin; `fail(message)` must exit. Resolves `{ client, address, call }`: `call(method,
 * request)` resolves the response, or closes the client and fails with the ledger's code and hint.
 */
export function connectAdminLedger({ deadlineMs, fail }) {
  let createLedgerClient, fromServiceError, serviceIdentity, grpcStatus;
  try {
    ({ createLedgerClient } = require("@agentic/clients"));
    ({ fromServiceError, serviceIdentity } = require("@agentic/platform"));
    ({ status: grpcStatus } = require("@grpc/grpc-js"));
  } catch (err) {
    fail(`cannot load the ledger client (${err.code ?? err.message}); run \`npm install\` and \`npm run build\` first`);
  }

  const address = process.env.LEDGER_ADDR || "127.0.0.1:50054";
  const adminKey =
    process.env.ADMIN_IDENTITY_KEY || (existsSync(DEV_ADMIN_KEY_FILE) ? readFileSync(DEV_ADMIN_KEY_FILE, "utf8").trim() : "");
  if (!adminKey)
    fail(
      "no admin identity: set ADMIN_IDENTITY_KEY (the admin's private key), or run `npm start`, which writes a development one to .data/admin-identity.key",
    );
  let admin;
  try {
    admin = serviceIdentity("admin", adminKey);
  } catch {
    fail("ADMIN_IDENTITY_KEY is not an Ed25519 private key (base64 of its PKCS#8 DER)");
  }
  const client = createLedgerClient(address, deadlineMs, admin);

  async function call(method, request) {
    try {
      return await client[method](request);
    } catch (err) {
      client.close();
      const remote = fromServiceError(err);
      if (remote.grpcCode === grpcStatus.UNAVAILABLE || remote.grpcCode === grpcStatus.DEADLINE_EXCEEDED) {
        fail(
          `the ledger is not reachable at ${address} (${grpcStatus[remote.grpcCode]}). Start it (\`npm start\`) or set LEDGER_ADDR=host:port.`,
        );
      }
      fail(`${remote.code}: ${remote.message}${remote.hint ? `\n  hint: ${remote.hint}` : ""}`);
    }
  }
  return { client, address, call };
}
