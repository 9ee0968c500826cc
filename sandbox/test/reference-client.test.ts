// Wire fidelity: the reference x402 client (@x402/core + @x402/evm, as a production buyer would use
// it) reads the sandbox's challenges and pays the sandbox seller, v2 and v1.
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { newWallet } from "./helpers/payer";
import { useSandbox } from "./helpers/sandbox";

const sandbox = useSandbox();

async function payWithReferenceClient() {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: newWallet() });
  const http = new x402HTTPClient(client);
  const url = `${sandbox().url}/x402/apollo/api/v1/mixed_people/api_search`;
  const init = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ person_titles: ["founder"] }) };
  const challenge = await fetch(url, init);
  expect(challenge.status).toBe(402);
  // JSON.parse in this realm: the reference client tests `body instanceof Object`, which a body parsed by
  // fetch's own realm fails inside jest's VM context.
  const required = http.getPaymentRequiredResponse((name) => challenge.headers.get(name), JSON.parse(await challenge.text()));
  const payload = await http.createPaymentPayload(required);
  const paid = await fetch(url, { ...init, headers: { ...init.headers, ...http.encodePaymentSignatureHeader(payload) } });
  return {
    paid,
    settlement: http.getPaymentSettleResponse((name) => paid.headers.get(name)),
    body: (await paid.json()) as { people: Array<{ name: string }> },
  };
}

describe("reference x402 client against the sandbox seller", () => {
  it("pays a v2 challenge", async () => {
    const { paid, settlement, body } = await payWithReferenceClient();
    expect(paid.status).toBe(200);
    expect(settlement).toMatchObject({ success: true, network: "eip155:84532" });
    expect(body.people.map((p) => p.name)).toEqual(["Hana Svoboda"]);
  });

  it("pays a v1 challenge", async () => {
    sandbox().control.x402.version = 1;
    const { paid, settlement } = await payWithReferenceClient();
    expect(paid.status).toBe(200);
    expect(settlement).toMatchObject({ success: true, network: "base-sepolia" });
  });
});
