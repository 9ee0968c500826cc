// What the tests that drive the npm-started system (./system.ts) over HTTP with the SDK, the CLI and the
// MCP server share: fresh API keys, funded wallets, waiting for what the system applies asynchronously.

/** A fresh API key (aak_ and 40 letters and digits). */
export function newApiKey(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return `aak_${Array.from({ length: 40 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join("")}`;
}

/** Adds `credits` to `userId`'s wallet through the development helper (the system runs with APP_ENV=development). */
export async function fund(baseUrl: string, userId: string, credits: number): Promise<void> {
  const res = await fetch(`${baseUrl}/dev/init`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ userId, balanceCredits: credits }),
  });
  if (res.status !== 200) throw new Error(`dev/init answered ${res.status}: ${await res.text()}`);
}

/** Resolves once `check` holds, asking every `everyMs` (for effects the system applies asynchronously, e.g. settled usage; slow enough to stay under a key's request rate). */
export async function until(check: () => Promise<boolean>, timeoutMs = 10_000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
