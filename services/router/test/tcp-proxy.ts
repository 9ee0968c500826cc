// A TCP proxy on 127.0.0.1 that a test can cut (every connection dropped, new ones refused) and
// restore: a network fault between one process and a real server, the server itself untouched.
import { connect, createServer, type Socket } from "node:net";

export interface TcpProxy {
  port: number;
  /** Drops every connection through it and refuses new ones until restore(). */
  cut(): void;
  /** Lets connections through again. */
  restore(): void;
  stop(): Promise<void>;
}

/** Forwards 127.0.0.1:<a free port> to 127.0.0.1:`targetPort`. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let open = true;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, "127.0.0.1");
    track(client);
    track(upstream);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the proxy has no port");
  return {
    port: address.port,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
