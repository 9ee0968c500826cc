// How task words become search terms: brands stay whole while field names split, links and values
// become the word for what they are, question words count, and word pairs and payloads are read.
import { payloadTermsOf, productNameTermsOf, termPairsOf, termsOf, tokenize, withoutFieldValues } from "./text";

describe("task text", () => {
  it("keeps a brand written in capitals whole and splits a camelCase field name", () => {
    expect(tokenize("PowerPoint to TikTok")).toEqual(["powerpoint", "to", "tiktok"]);
    expect(tokenize("targetLanguage")).toEqual(["target", "language"]);
  });

  it("keeps question words as search terms", () => {
    expect(termsOf("how does a heat pump work")).toContain("how");
    expect(termsOf("why is the sky blue")).toContain("whi");
  });

  it("turns a link into its file type, a company domain into 'domain' and a $TICKER into 'ticker'", () => {
    expect(termsOf(withoutFieldValues("parse https://example.com/files/deck.pptx?v=2, please"))).toEqual(["pars", "pptx"]);
    expect(termsOf(withoutFieldValues("read https://news.example.com"))).toEqual(["read"]);
    expect(termsOf(withoutFieldValues("enrich acme.com"))).toEqual(["enrich", "domain"]);
    expect(termsOf(withoutFieldValues("price of $AMZN today"))).toEqual(["price", "ticker", "today"]);
    expect(termsOf(withoutFieldValues("mail ana@example.com"))).toEqual(["mail"]);
  });

  it("reads word pairs in order, skipping stop words", () => {
    expect(termPairsOf("text to image: a red fox")).toEqual(["text imag", "imag red", "red fox"]);
  });

  it("reads the payload after 'instruction:' only when the instruction has words", () => {
    expect([...payloadTermsOf("text to image: a red fox")]).toEqual(["red", "fox"]);
    expect([...payloadTermsOf("to: a red fox")]).toEqual([]);
    expect([...payloadTermsOf("no colon here")]).toEqual([]);
  });

  it("reads a capitalized word the catalog does not know as a product, unless it is a place or a code", () => {
    const known = new Set(["file", "open", "ticket"]);
    expect([...productNameTermsOf("file a ticket in Freshdesk", known)]).toEqual(["freshdesk"]);
    // Places the runtime knows (a zone's city, under its current name too, a country) and codes in capitals are not products.
    expect([...productNameTermsOf("open tickets in Kolkata, Lisbon, São Paulo and Peru", known)]).toEqual([]);
    expect([...productNameTermsOf("ticket from JFK to CDG", known)]).toEqual([]);
    // A word the catalog knows, and the first word of the task, are not read as a product.
    expect([...productNameTermsOf("Freshdesk: open a Ticket", known)]).toEqual([]);
  });

  it("reads at most a few product names, however many a task holds (each costs a place lookup)", () => {
    const known = new Set<string>();
    const names = Array.from({ length: 300 }, (_, i) => `Zq${i.toString(36)}vex`);
    expect(productNameTermsOf(`open ${names.join(" ")}`, known).size).toBe(8);
  });
});
