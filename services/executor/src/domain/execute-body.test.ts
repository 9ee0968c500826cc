import { OperationContract } from "@agentic/proto/catalog/v1";
import { BodyShapeError, readExecuteBody, splitControls } from "./execute-body";

const contract = OperationContract.fromPartial({
  fields: [
    { name: "model", type: "string" },
    { name: "messages", type: "array" },
    { name: "routeKey", type: "string" },
  ],
});
/** A contract with a field named like the wrapper (models.embeddings.create has `input`). */
const withInputField = OperationContract.fromPartial({ fields: [{ name: "input", type: "object" }] });

describe("readExecuteBody", () => {
  it("reads a flat body as is, dropping null (not given) values", () => {
    expect(readExecuteBody({ model: "m", temperature: null, routeKey: "r" }, contract)).toEqual({ model: "m", routeKey: "r" });
  });

  it("unwraps {input: {...}} with routing controls beside it", () => {
    const body = { input: { model: "m", messages: [] }, routeKey: "models.chat.complete.groq.mpp" };
    expect(readExecuteBody(body, contract)).toEqual({ model: "m", messages: [], routeKey: "models.chat.complete.groq.mpp" });
  });

  it("does not unwrap when a capability field sits beside the wrapper, or the contract has an input field", () => {
    expect(readExecuteBody({ input: { model: "m" }, model: "x" }, contract)).toEqual({ input: { model: "m" }, model: "x" });
    expect(readExecuteBody({ input: { a: 1 } }, withInputField)).toEqual({ input: { a: 1 } });
  });

  it("refuses a routing control given both inside and beside the wrapper", () => {
    expect(() => readExecuteBody({ input: { routeKey: "a" }, routeKey: "b" }, contract)).toThrow(BodyShapeError);
  });
});

describe("splitControls", () => {
  it("separates provider, routeKey and allowFallback from the capability input", () => {
    expect(splitControls({ to: "a@example.com", provider: "resend", routeKey: "email.send.resend", allowFallback: false })).toEqual({
      input: { to: "a@example.com" },
      provider: "resend",
      routeKey: "email.send.resend",
      allowFallback: false,
    });
  });
});
