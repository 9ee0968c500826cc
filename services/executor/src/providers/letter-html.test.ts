// A letter's HTML keeps to its one page: nothing the caller writes can close the frame, bring a
// stylesheet, run a script or force page breaks; ordinary letter markup survives.
import { sanitizeLetterHtml } from "./letter-html";

describe("sanitizeLetterHtml", () => {
  it("keeps ordinary letter markup and harmless inline styles", () => {
    const html =
      '<h1>Dear Ada</h1><p style="text-align:center;color:#333">Thank you.</p><ul><li>One</li></ul><img src="https://x.io/a.png" alt="logo">';
    expect(sanitizeLetterHtml(html)).toBe(
      '<h1>Dear Ada</h1><p style="text-align:center;color:#333">Thank you.</p><ul><li>One</li></ul><img src="https://x.io/a.png" alt="logo" />',
    );
  });

  it("cannot close the frame: stray closing tags are dropped and what it opens is closed", () => {
    const out = sanitizeLetterHtml('<p>Page one</p></div></body></html><div style="height:40in">More<div>');
    expect(out).toBe('<p>Page one</p><div style="height:40in">More<div></div></div>');
    expect((out.match(/<div/g) ?? []).length).toBe((out.match(/<\/div>/g) ?? []).length);
  });

  it("removes stylesheets, scripts and document-level tags with their content", () => {
    const out = sanitizeLetterHtml(
      '<html><head><style>.agentic-page{height:auto!important;overflow:visible}</style><link rel="stylesheet" href="https://x.io/a.css"></head>' +
        "<body><p>Hi</p><script>alert(1)</script><iframe src='https://x.io'></iframe></body></html>",
    );
    expect(out).toBe("<p>Hi</p>");
  });

  it("drops styles that force pages, move content out of the page or change display", () => {
    const out = sanitizeLetterHtml(
      '<div style="page-break-before:always !important;break-after:page;position:fixed;top:30in;display:block;float:left;font-weight:bold">x</div>',
    );
    expect(out).toBe('<div style="font-weight:bold">x</div>');
  });
});
