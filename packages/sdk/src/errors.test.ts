import {
  AgenticApiError,
  AuthenticationError,
  InsufficientCreditsError,
  InvalidRequestError,
  PermissionError,
  RateLimitError,
  ServerError,
  errorFromResponse,
} from "./errors";

const body = (code: string, error = "message") => ({
  success: false,
  error,
  code,
  hint: "do this",
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
});

describe("errorFromResponse", () => {
  it("answers each status with its subclass, carrying code, hint and traceId", () => {
    const cases: Array<[number, new (...args: never[]) => AgenticApiError]> = [
      [400, InvalidRequestError],
      [401, AuthenticationError],
      [402, InsufficientCreditsError],
      // No public path of the system answers 403 today (service-to-service refusals stay inside); the class is still there.
      [403, PermissionError],
      [404, InvalidRequestError],
      [409, InvalidRequestError],
      [429, RateLimitError],
      [502, ServerError],
      [503, ServerError],
    ];
    for (const [status, type] of cases) {
      const err = errorFromResponse(status, body("SOME_CODE"), new Headers());
      expect(err).toBeInstanceOf(type);
      expect(err).toMatchObject({
        status,
        code: "SOME_CODE",
        hint: "do this",
        traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
        message: "message",
      });
      expect(err.name).toBe(type.name);
    }
  });

  it("reads Retry-After and the execution id", () => {
    const err = errorFromResponse(409, { ...body("IDEMPOTENCY_IN_PROGRESS"), executionId: "exe_1" }, new Headers({ "retry-after": "2" }));
    expect(err).toMatchObject({ retryAfter: 2, executionId: "exe_1" });
  });

  it("reads a 402's amounts from its body's requiredCredits and balanceCredits", () => {
    const stated = errorFromResponse(
      402,
      { ...body("CREDITS_REQUIRED", "a message naming no numbers"), requiredCredits: 14, balanceCredits: 5, missingCredits: 9 },
      new Headers(),
    );
    expect(stated).toMatchObject({ requiredCredits: 14, balanceCredits: 5, missingCredits: 9 });
  });

  it("reads a 402's missing credits from its message when the body states none, or the price from the x402 offer", () => {
    const fixed = errorFromResponse(
      402,
      body("CREDITS_REQUIRED", "Route r costs 10 credits; the wallet has 3 available. Nothing was charged."),
      new Headers(),
    );
    expect(fixed).toMatchObject({ requiredCredits: 10, balanceCredits: 3, missingCredits: 7 });
    const metered = errorFromResponse(
      402,
      body(
        "CREDITS_REQUIRED",
        "This request can cost up to 40 credits on route m, held until the vendor reports its usage; the wallet has 25 available. Nothing was charged.",
      ),
      new Headers(),
    );
    expect(metered).toMatchObject({ requiredCredits: 40, missingCredits: 15 });
    const offer = btoa(JSON.stringify({ x402Version: 2, accepts: [{ amount: "12000" }] }));
    const offered = errorFromResponse(402, body("CREDITS_REQUIRED", "insufficient"), new Headers({ "payment-required": offer }));
    expect(offered).toMatchObject({ requiredCredits: 12, missingCredits: undefined });
  });

  it("keeps a body that is not an ErrorResponse (a proxy's page)", () => {
    const err = errorFromResponse(502, "<html>bad gateway</html>", new Headers());
    expect(err).toMatchObject({ status: 502, code: "HTTP_502", message: "HTTP 502", body: "<html>bad gateway</html>" });
  });
});
