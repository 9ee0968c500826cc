import { z } from "zod";
import { ConfigError, addressSchema, loadConfig, portSchema } from "./config";

const schema = z.object({ PORT: portSchema.default(50051), LEDGER_ADDR: addressSchema });

describe("loadConfig", () => {
  it("parses and applies defaults", () => {
    expect(loadConfig(schema, { LEDGER_ADDR: "ledger:50051" })).toEqual({ PORT: 50051, LEDGER_ADDR: "ledger:50051" });
  });

  it("reports every problem at once", () => {
    try {
      loadConfig(schema, { PORT: "x", LEDGER_ADDR: "nope" });
      throw new Error("expected a ConfigError");
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems;
      expect(problems).toHaveLength(2);
      expect(problems.join("\n")).toMatch(/PORT/);
      expect(problems.join("\n")).toMatch(/LEDGER_ADDR: must be host:port/);
    }
  });
});
