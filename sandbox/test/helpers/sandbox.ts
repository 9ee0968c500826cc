// Starts a sandbox for one test file and stops it afterwards.
import { startSandbox, type RunningSandbox } from "../../src/start";

export function useSandbox(): () => RunningSandbox {
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(async () => {
    await sandbox?.stop();
  });
  beforeEach(() => {
    sandbox?.control.reset();
  });
  return () => {
    if (!sandbox) throw new Error("sandbox not started");
    return sandbox;
  };
}

/** POSTs JSON and returns status, headers and parsed body. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, body: json as any };
}
