// A started system's REST API as its crash and rollout tests call it: the test key on every request,
// JSON bodies, an Idempotency-Key where given, and the email send those tests put in flight.
import { waitFor } from "@agentic/testing";

export interface SystemUnderTest {
  baseUrl: string;
  apiKey: string;
}

export interface SystemClient {
  api(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  /** POST email.send on resend (its price: 10 credits) with `key` as the Idempotency-Key. */
  sendEmail(key: string, text: string): Promise<Response>;
  /** The wallet's balance as GET /wallet answers it now. */
  balance(): Promise<number>;
  /**
   * A first email send that warms every path (catalog cache, channels): a cold start's 503 or 504 is
   * sent again, as a client would; resolves the answer that was neither.
   */
  warmUp(): Promise<Response>;
}

/** `system()` is read at each call, so a client made before the system started serves it once it has. */
export function systemClient(system: () => SystemUnderTest): SystemClient {
  const api = (path: string, init: RequestInit & { key?: string } = {}) =>
    fetch(`${system().baseUrl}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${system().apiKey}`,
        "content-type": "application/json",
        ...(init.key ? { "idempotency-key": init.key } : {}),
        ...init.headers,
      },
    });
  const sendEmail = (key: string, text: string) =>
    api("/domains/email/capabilities/send/execute", {
      method: "POST",
      key,
      body: JSON.stringify({ to: "ada@example.com", subject: "Hi", text, provider: "resend" }),
    });
  return {
    api,
    sendEmail,
    balance: async () => ((await (await api("/wallet")).json()) as { balanceCredits: number }).balanceCredits,
    warmUp: async () => {
      let warm: Response | undefined;
      await waitFor(
        async () => {
          warm = await sendEmail(`warm-${Date.now()}`, "A first call.");
          return warm.status !== 503 && warm.status !== 504;
        },
        { what: "a first execute answered", timeoutMs: 30_000, intervalMs: 250 },
      );
      return warm!;
    },
  };
}
