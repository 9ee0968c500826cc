// Initiates replica set rs0 once; running it again is a no-op (mongosh script, run by init-job.yaml).
// Members are the StatefulSet pods mongodb-0..N-1 by their stable names under the headless Service.
const members = Number(process.env.MONGODB_MEMBERS || "1");
const service = process.env.MONGODB_SERVICE || "mongodb";

try {
  const status = rs.status();
  print(`replica set ${status.set} already initiated (${status.members.length} members)`);
} catch (err) {
  if (err.codeName !== "NotYetInitialized") throw err;
  const config = {
    _id: "rs0",
    members: Array.from({ length: members }, (_, i) => ({ _id: i, host: `mongodb-${i}.${service}:27017` })),
  };
  printjson(rs.initiate(config));
}
