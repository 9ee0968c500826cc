// guardService over a real grpc-js server and clients: who may call what, proven by signed tokens.
import { makeGenericClientConstructor, status, type Client, type ServiceDefinition } from "@grpc/grpc-js";
import { createClient, promisifyUnary } from "./client";
import { bindServer, createGrpcServer, stopServer } from "./server";
import { createHealth, createHealthChecker } from "./health";
import { unary } from "./unary";
import { devOnly, guardService, unlistedRpcs, type AccessTable } from "./access";
import { fromServiceError } from "./status";
import {
  createTokenVerifier,
  generateIdentityKeys,
  serviceIdentity,
  trustedServiceKeysSchema,
  formatTrustedKeys,
  type CallIdentity,
  type ServiceName,
} from "../identity/service-identity";

const json = {
  requestStream: false,
  responseStream: false,
  requestSerialize: (v: object) => Buffer.from(JSON.stringify(v)),
  requestDeserialize: (b: Buffer) => JSON.parse(b.toString()),
  responseSerialize: (v: object) => Buffer.from(JSON.stringify(v)),
  responseDeserialize: (b: Buffer) => JSON.parse(b.toString()),
};
// A hand-written service (JSON codec) keeps this test independent of generated code.
const definition = {
  grant: { path: "/test.Bank/Grant", ...json },
  read: { path: "/test.Bank/Read", ...json },
  audit: { path: "/test.Bank/Audit", ...json },
} satisfies ServiceDefinition;
// Audit is left out on purpose: an RPC without an entry is closed.
const TABLE: AccessTable = { Grant: ["admin", devOnly("gateway")], Read: ["gateway", "router"] };

const keys = Object.fromEntries((["admin", "gateway", "router"] as const).map((n) => [n, generateIdentityKeys()])) as Record<
  "admin" | "gateway" | "router",
  ReturnType<typeof generateIdentityKeys>
>;
const trusted = trustedServiceKeysSchema.parse(
  formatTrustedKeys({ admin: keys.admin.publicKey, gateway: keys.gateway.publicKey, router: keys.router.publicKey }),
);
const BankClient = makeGenericClientConstructor(definition, "Bank") as unknown as new (
  ...args: ConstructorParameters<ReturnType<typeof makeGenericClientConstructor>>
) => Client & Record<"grant" | "read" | "audit", (...args: never[]) => never>;

async function startBank(development: boolean) {
  const server = createGrpcServer();
  const health = createHealth(["test.Bank"]);
  // Answers with the caller the guard verified, as handlers read it.
  const ok = unary(async (_req, ctx) => ({ ok: true, caller: ctx.caller }));
  server.addService(
    definition,
    guardService(definition, { grant: ok, read: ok, audit: ok }, { table: TABLE, verifier: createTokenVerifier(trusted), development }),
  );
  health.addToServer(server);
  health.setServing(true);
  const port = await bindServer(server, "127.0.0.1:0");
  const clients: Client[] = [];
  const as = (identity?: CallIdentity) => {
    const client = createClient(BankClient, `127.0.0.1:${port}`, identity);
    clients.push(client);
    const call = (method: "grant" | "read" | "audit") => promisifyUnary<object, { ok: boolean }>(client, client[method] as never)({});
    return { grant: () => call("grant"), read: () => call("read"), audit: () => call("audit") };
  };
  return {
    address: `127.0.0.1:${port}`,
    as,
    stop: async () => {
      clients.forEach((c) => c.close());
      await stopServer(server, 1_000);
    },
  };
}

const identity = (name: "admin" | "gateway" | "router") => serviceIdentity(name, keys[name].privateKey);
const refusal = async (call: Promise<unknown>) =>
  fromServiceError(
    await call.then(
      () => undefined,
      (err: unknown) => err,
    ),
  );

describe("guardService (production: development=false)", () => {
  let bank: Awaited<ReturnType<typeof startBank>>;
  beforeAll(async () => {
    bank = await startBank(false);
  });
  afterAll(() => bank.stop());

  it("lets a listed caller through, and tells the handler who it is", async () => {
    await expect(bank.as(identity("admin")).grant()).resolves.toEqual({ ok: true, caller: "admin" });
    await expect(bank.as(identity("router")).read()).resolves.toEqual({ ok: true, caller: "router" });
  });

  it("refuses a verified caller the entry does not list with PERMISSION_DENIED", async () => {
    expect(await refusal(bank.as(identity("router")).grant())).toMatchObject({
      grpcCode: status.PERMISSION_DENIED,
      code: "SERVICE_NOT_ALLOWED",
      hint: "Only admin, gateway (development only) may call Grant.",
    });
  });

  it("refuses a development-only caller outside development", async () => {
    expect(await refusal(bank.as(identity("gateway")).grant())).toMatchObject({
      grpcCode: status.PERMISSION_DENIED,
      code: "SERVICE_NOT_ALLOWED",
    });
  });

  it("refuses a call without a token with UNAUTHENTICATED", async () => {
    expect(await refusal(bank.as().read())).toMatchObject({ grpcCode: status.UNAUTHENTICATED, code: "SERVICE_IDENTITY_REQUIRED" });
  });

  it("refuses a caller that claims a name it holds no key for", async () => {
    // Signed with a key of its own, claiming to be admin: the signature is not admin's.
    const impostor = serviceIdentity("admin", generateIdentityKeys().privateKey);
    expect(await refusal(bank.as(impostor).grant())).toMatchObject({ grpcCode: status.UNAUTHENTICATED, code: "SERVICE_IDENTITY_INVALID" });
    // A name the callee has no key for at all.
    const stranger = serviceIdentity("executor" as ServiceName, generateIdentityKeys().privateKey);
    expect(await refusal(bank.as(stranger).read())).toMatchObject({ grpcCode: status.UNAUTHENTICATED, code: "SERVICE_IDENTITY_INVALID" });
  });

  it("refuses a token made for another service", async () => {
    const gateway = identity("gateway");
    const forOther: CallIdentity = { tokenFor: () => gateway.tokenFor("/test.Other/Read") };
    expect(await refusal(bank.as(forOther).read())).toMatchObject({ grpcCode: status.UNAUTHENTICATED, code: "SERVICE_IDENTITY_INVALID" });
  });

  it("refuses an RPC that has no entry, whoever calls (fail closed)", async () => {
    expect(unlistedRpcs(definition, TABLE)).toEqual(["Audit"]);
    expect(await refusal(bank.as(identity("admin")).audit())).toMatchObject({
      grpcCode: status.PERMISSION_DENIED,
      code: "SERVICE_NOT_ALLOWED",
    });
  });

  it("leaves the health service open for probes", async () => {
    const checker = createHealthChecker(bank.address);
    try {
      await expect(checker.check(2_000)).resolves.toBe(true);
    } finally {
      checker.close();
    }
  });
});

describe("guardService (development=true)", () => {
  it("lets a development-only caller through", async () => {
    const bank = await startBank(true);
    try {
      await expect(bank.as(identity("gateway")).grant()).resolves.toEqual({ ok: true, caller: "gateway" });
      expect(await refusal(bank.as(identity("router")).grant())).toMatchObject({ grpcCode: status.PERMISSION_DENIED });
    } finally {
      await bank.stop();
    }
  });
});
