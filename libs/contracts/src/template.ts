/**
 * Project templates: HTML with `[[variable]]` placeholders. Shared by the API (rendering a task's prompt)
 * and the console (live preview), so a worker sees exactly what the preview showed.
 */
/** `[[__proto__]]` is plain text: parsed objects drop that key, so no value could reach it (add-task.schema.ts refuses it). */
const PLACEHOLDER = /\[\[\s*(?!__proto__\s*\]\])([A-Za-z_][A-Za-z0-9_.-]*)\s*\]\]/g;

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

/**
 * A template split once into literal text and variable names, alternating: [text, name, text, ..., text].
 * add_task renders one project's template thousands of times a second; scanning it with the placeholder
 * regex each time was the largest cost of our own code on that path (docs/performance.md).
 */
type CompiledTemplate = string[];

const compiled = new Map<string, CompiledTemplate>();
/** Templates are per project; past this many distinct ones the cache starts over rather than growing. */
const MAX_COMPILED = 1000;

function compile(template: string): CompiledTemplate {
  let parts = compiled.get(template);
  if (parts) return parts;
  parts = template.split(PLACEHOLDER);
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(template, parts);
  return parts;
}

/** Replaces every placeholder with its HTML-escaped value; callers make sure every variable has one. */
export function renderTemplate(template: string, values: Record<string, string>): string {
  const parts = compile(template);
  let html = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    // Own keys only: a placeholder named like an Object.prototype member must not find that member.
    const value = Object.hasOwn(values, parts[i]) ? values[parts[i]] : '';
    html += escapeHtml(value) + parts[i + 1];
  }
  return html;
}
