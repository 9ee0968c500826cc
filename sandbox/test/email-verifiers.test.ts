// Hunter and ZeroBounce stand-ins answer from one mailbox world, each in its own format and auth.
import { SANDBOX_API_KEYS } from "../src/app";
import { useSandbox } from "./helpers/sandbox";

const sandbox = useSandbox();
const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${sandbox().url}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as any };
};

describe("Hunter and ZeroBounce stand-ins", () => {
  it("agree on each kind of mailbox", async () => {
    const cases: Array<[string, string, string]> = [
      ["ada.moreau@northwind.example", "valid", "valid"],
      ["x@globex.example", "accept_all", "catch-all"],
      ["x@mailinator.com", "disposable", "do_not_mail"],
      ["ghost@northwind.example", "invalid", "invalid"],
      ["x@unknown.example", "invalid", "invalid"],
    ];
    for (const [email, hunter, zerobounce] of cases) {
      const h = await get(`/hunter/v2/email-verifier?email=${encodeURIComponent(email)}`, { "X-API-KEY": SANDBOX_API_KEYS.hunter });
      const z = await get(`/zerobounce/v2/validate?api_key=${SANDBOX_API_KEYS.zerobounce}&email=${encodeURIComponent(email)}&ip_address=`);
      expect([email, h.body.data.status, z.body.status]).toEqual([email, hunter, zerobounce]);
    }
  });

  it("take Hunter's key as X-API-KEY, Bearer or api_key, and answer {errors: [...]} otherwise", async () => {
    const path = "/hunter/v2/email-finder?domain=northwind.example&full_name=Ada%20Moreau";
    expect((await get(path, { Authorization: `Bearer ${SANDBOX_API_KEYS.hunter}` })).body.data.email).toBe("ada.moreau@northwind.example");
    expect((await get(`${path}&api_key=${SANDBOX_API_KEYS.hunter}`)).status).toBe(200);
    expect(await get(path, { "X-API-KEY": "wrong" })).toEqual({
      status: 401,
      body: { errors: [{ id: "authentication_failed", code: 401, details: "No user found for the API key supplied" }] },
    });
    const missing = await get("/hunter/v2/email-finder?full_name=Ada%20Moreau", { "X-API-KEY": SANDBOX_API_KEYS.hunter });
    expect(missing).toEqual({
      status: 400,
      body: { errors: [{ id: "wrong_params", code: 400, details: "You are missing the domain parameter" }] },
    });
  });

  it("answer ZeroBounce's account and parameter errors as 200 {error}", async () => {
    expect(await get("/zerobounce/v2/validate?api_key=wrong&email=a@b.example&ip_address=")).toEqual({
      status: 200,
      body: { error: "Invalid API key or your account ran out of credits" },
    });
    expect((await get(`/zerobounce/v2/validate?api_key=${SANDBOX_API_KEYS.zerobounce}&ip_address=`)).body).toEqual({
      error: "Missing parameter: email",
    });
  });
});
