// The caller's letter HTML, made safe for the one-page frame Lob prints it in (lob.ts). The price is
// one page; HTML that closes the frame, brings its own stylesheet or breaks pages inline (`!important`
// beats the frame's own rules) would print many pages for it. sanitize-html parses the fragment and
// writes it back balanced (a stray `</div>` cannot close the frame), keeping only body-level tags
// and a short list of inline styles that cannot move content out of the page or break it.
import sanitizeHtml from "sanitize-html";

/** Tags a letter body may use: text, lists, tables, images; never a document, a stylesheet, a script or a frame. */
const LETTER_TAGS = [
  ...["p", "br", "hr", "div", "span", "blockquote", "pre", "h1", "h2", "h3", "h4", "h5", "h6"],
  ...["strong", "b", "em", "i", "u", "s", "small", "sup", "sub", "a", "img"],
  ...["ul", "ol", "li", "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption"],
];

/**
 * A CSS value made of plain words, numbers, lengths, colours and commas: no url(), no expression. (An
 * `!important` on a kept property is harmless: the frame clips its one page whatever the sizes inside.)
 */
const PLAIN = /^[\w\s.,#%()-]{1,100}$/;

/** Inline styles kept: typography, colour, box sizes; never position, display, floats or page breaks. */
const LETTER_STYLES = Object.fromEntries(
  [
    "color",
    "background-color",
    "font-family",
    "font-size",
    "font-style",
    "font-weight",
    "line-height",
    "text-align",
    "text-decoration",
    "vertical-align",
    "width",
    "height",
    "margin",
    "margin-top",
    "margin-bottom",
    "margin-left",
    "margin-right",
    "padding",
    "padding-top",
    "padding-bottom",
    "padding-left",
    "padding-right",
    "border",
    "border-collapse",
  ].map((property) => [property, [PLAIN]]),
);

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: LETTER_TAGS,
  allowedAttributes: {
    "*": ["style", "align"],
    a: ["href"],
    img: ["src", "alt", "width", "height"],
    td: ["colspan", "rowspan"],
    th: ["colspan", "rowspan"],
  },
  allowedStyles: { "*": LETTER_STYLES },
  allowedSchemes: ["https", "data"],
  allowedSchemesByTag: { a: ["https", "mailto"] },
  // <style>, <script> and the like go with their content, not as loose text.
  nonTextTags: ["style", "script", "textarea", "option", "noscript", "title", "head"],
};

/** The letter HTML with only what the one-page frame can hold. */
export function sanitizeLetterHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
