// A request that sends one header twice, which fetch cannot do (it joins the values into one): how
// the tests show a repeated Agent-Name or Idempotency-Key is refused rather than silently merged.
import { request } from "node:http";

/** Sends `name` twice (`first-value`, `second-value`) with `headers`, and resolves the status and JSON body. */
export function sendWithRepeatedHeader(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  name: string,
): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: init.method,
        headers: {
          ...init.headers,
          ...(init.body !== undefined ? { "content-length": Buffer.byteLength(init.body) } : {}),
          [name]: ["first-value", "second-value"],
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}
