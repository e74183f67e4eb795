/**
 * Project templates: HTML with `[[variable]]` placeholders. Shared by the API (rendering a task's prompt)
 * and the console (live preview), so a worker sees exactly what the preview showed.
 */
const PLACEHOLDER = /\[\[\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\]\]/g;

/** Variable names in order of first appearance. */
export function templateVariables(template: string): string[] {
  const seen = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) seen.add(match[1]);
  return [...seen];
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);
}

/** Replaces every placeholder with its HTML-escaped value; callers make sure every variable has one. */
export function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) => escapeHtml(values[name] ?? ''));
}
