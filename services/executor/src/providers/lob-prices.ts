// Lob's published per-piece prices (lob.com/pricing, Developer plan, USPS First Class, postage
// included, US addresses) and what our post routes charge for them. A route has one price, so each
// send route is priced for the dearest piece its contract accepts (a one-page color letter, a 6x11
// postcard); the quote reports Lob's cost for the options given and that send price, which is what
// letter.send will charge for the same body.

/** Lob's cost of a one-page letter, in USD. */
const LOB_LETTER_USD = { blackAndWhite: 0.9, color: 1.2 } as const;
/** Lob's cost of a postcard by size, in USD. */
export const LOB_POSTCARD_USD: Readonly<Record<string, number>> = { "4x6": 0.7, "6x9": 0.9, "6x11": 1.05 };

/** Our margin on Lob's price. */
const MARGIN = 1.25;
const creditsOf = (usd: number) => Math.ceil(Math.round(usd * MARGIN * 1e6) / 1e3);

/** What post.letter.send charges for any letter it accepts: a color page at Lob's price + 25% (the catalog's priceCredits). */
export const LETTER_SEND_CREDITS = creditsOf(LOB_LETTER_USD.color);
/** What post.postcard.send charges for any postcard it accepts: a 6x11 at Lob's price + 25% (the catalog's priceCredits). */
export const POSTCARD_SEND_CREDITS = creditsOf(Math.max(...Object.values(LOB_POSTCARD_USD)));

/** Lob's cost of one letter with these options, in USD. */
export function letterCostUsd(opts: { color: boolean }): number {
  return opts.color ? LOB_LETTER_USD.color : LOB_LETTER_USD.blackAndWhite;
}
