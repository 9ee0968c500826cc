// The provider sandbox's /_control API of a system started for a test (faults, the call log, reset),
// reached on the sandbox's own port.
export interface SandboxPorts {
  ports: Record<string, { port: number }>;
}

/** A request to the sandbox's control API, e.g. sandboxControl(sys, "/faults", { method: "POST", body }). */
export function sandboxControl(sys: SandboxPorts, path: string, init?: RequestInit): Promise<Response> {
  return fetch(`http://127.0.0.1:${sys.ports.sandbox!.port}/_control${path}`, { headers: { "content-type": "application/json" }, ...init });
}

/** How many calls the sandbox's vendors (or one of them) have received. */
export async function providerCallCount(sys: SandboxPorts, provider?: string): Promise<number> {
  const res = await sandboxControl(sys, provider ? `/calls?provider=${provider}` : "/calls");
  return ((await res.json()) as { calls: unknown[] }).calls.length;
}
