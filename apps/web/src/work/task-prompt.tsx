import DOMPurify from 'dompurify';
import { useMemo } from 'react';

/**
 * The server already sanitizes prompts; this is the second, independent line: whatever HTML arrives,
 * no script, event handler, form or style can come through, and links open in a new tab without
 * access to this one. Styles are dropped so a prompt cannot cover the page's own controls, and classes,
 * which could only borrow the app's own look (its top bar, its menus) to pass a requester's link off as
 * part of the page.
 */
export function sanitizePrompt(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'object', 'embed', 'base', 'meta', 'link'],
    FORBID_ATTR: ['style', 'class', 'srcset', 'action', 'formaction'],
    ALLOW_DATA_ATTR: false,
  });
}

let linkHookInstalled = false;
function installLinkHook(): void {
  if (linkHookInstalled) return;
  linkHookInstalled = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
}

/** The task's instructions, rendered as sanitized HTML. */
export function TaskPrompt({ html }: { html: string }) {
  const safe = useMemo(() => {
    installLinkHook();
    return sanitizePrompt(html);
  }, [html]);
  return <div className="task-prompt" data-testid="task-prompt" dangerouslySetInnerHTML={{ __html: safe }} />;
}
