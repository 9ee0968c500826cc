// Opens the MongoDB database the ledger's store and its migrations use: majority, journaled writes and
// majority reads on every operation, and a start-up check that the server can give them (a replica set
// or a sharded cluster; a standalone server has no majority and no transactions).
import { MongoClient } from "mongodb";
import { MongoDb } from "./mongo-db";

export interface MongoConnectOptions {
  uri: string;
  dbName: string;
  /** Server selection timeout for connect and every operation (default 5 s). */
  serverSelectionTimeoutMS?: number;
  /** The client's name in the server's logs and currentOp (default agentic-ledger). */
  appName?: string;
}

/** Connects, checks the server answers and can take majority writes; closes the client if not. */
export async function connectMongoDb(opts: MongoConnectOptions): Promise<MongoDb> {
  const client = new MongoClient(opts.uri, {
    appName: opts.appName ?? "agentic-ledger",
    writeConcern: { w: "majority", journal: true },
    readConcern: { level: "majority" },
    retryWrites: true,
    ignoreUndefined: true, // absent optional fields stay absent instead of becoming null
    serverSelectionTimeoutMS: opts.serverSelectionTimeoutMS ?? 5_000,
  });
  await client.connect();
  const m = new MongoDb(client, client.db(opts.dbName));
  try {
    await checkMajorityWrites(m);
  } catch (err) {
    await client.close();
    throw err;
  }
  return m;
}

/** Refuses a server where w: majority and transactions cannot work: every money operation needs both. */
async function checkMajorityWrites(m: MongoDb): Promise<void> {
  const hello = await m.db.admin().command({ hello: 1 });
  if (typeof hello.setName === "string" || hello.msg === "isdbgrid") return;
  throw new Error(
    "MongoDB at MONGODB_URI is a standalone server: the ledger writes with w: majority in transactions, which need a replica set " +
      "(one member is enough for development: mongod --replSet rs0, then rs.initiate())",
  );
}
