import { vendorIdempotencyKey } from "./idempotency";

describe("vendor idempotency keys", () => {
  it("derives vendor idempotency keys per user, so equal client keys of two users never collide", () => {
    expect(vendorIdempotencyKey("u1", "k")).toBe(vendorIdempotencyKey("u1", "k"));
    expect(vendorIdempotencyKey("u1", "k")).not.toBe(vendorIdempotencyKey("u2", "k"));
    expect(vendorIdempotencyKey("u1", "k")).toMatch(/^idem_[A-Za-z0-9_-]{32}$/);
  });
});
