// An adapter's input guard refuses a wrong value naming the field, apart from its words, so the
// client's 400 says which field to fix (plan-execution.ts turns it into INVALID_INPUT for that field).
import { ProviderError } from "../domain/provider-port";
import { InputReader } from "./input";

describe("InputReader", () => {
  it("refuses a missing or blank required string with the field named on the error", () => {
    const read = new InputReader("resend", { to: "  ", cc: ["ok@example.com", 3] });
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return err instanceof ProviderError ? { kind: err.kind, field: err.field, message: err.message } : err;
      }
      return undefined;
    };
    expect(refusal(() => read.string("to", true))).toEqual({
      kind: "invalid_input",
      field: "to",
      message: 'input field "to" must be a non-empty string',
    });
    expect(refusal(() => read.string("subject", true))).toMatchObject({ field: "subject" });
    expect(refusal(() => read.strings("cc"))).toMatchObject({ field: "cc" });
    expect(read.string("subject")).toBeUndefined();
  });
});
