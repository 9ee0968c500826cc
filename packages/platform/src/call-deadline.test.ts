import { callDeadlineMs } from "./call-deadline";

describe("callDeadlineMs", () => {
  it("is the call's limit, cut to the caller's remaining budget, never below 1 ms", () => {
    expect(callDeadlineMs(2_000, Infinity)).toBe(2_000);
    expect(callDeadlineMs(2_000, 750)).toBe(750);
    expect(callDeadlineMs(2_000, 0)).toBe(1);
    expect(callDeadlineMs(2_000, -40)).toBe(1);
  });
});
