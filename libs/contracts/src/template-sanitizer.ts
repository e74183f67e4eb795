import sanitizeHtml from 'sanitize-html';

/**
 * The allowlist for project templates, applied when a template is saved (and to prompts before a worker
 * sees them): formatting, lists, tables, images and links; no script, no style, no event handlers, no
 * javascript: URLs. `[[variable]]` placeholders are plain text and survive. Shared by the API and the
 * console's worker preview (sanitize-html runs in both), so the preview drops what saving drops.
 */
let built: sanitizeHtml.IOptions | undefined;
// Built on first use, not at load: a call at module level would keep sanitize-html (about 60 KiB gzip) in
// the worker bundle, which imports this library for other things and never sanitizes.
const options = (): sanitizeHtml.IOptions => (built ??= {
  allowedTags: [
    'p', 'div', 'span', 'br', 'hr', 'b', 'strong', 'i', 'em', 'u', 's', 'small', 'sub', 'sup', 'mark',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
    'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'figure', 'figcaption', 'img', 'a',
  ],
  allowedAttributes: {
    // No `class`: a prompt has no stylesheet of its own, so a class could only borrow the app's (its top
    // bar, its menus) to dress a requester's link as the worker's own page.
    '*': ['title', 'lang', 'dir'],
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }),
  },
});

/** The template as the API stores it: only the allowlist's tags, attributes and URL schemes. */
export function sanitizeTemplate(html: string): string {
  return sanitizeHtml(html, options());
}
