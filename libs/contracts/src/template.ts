/**
 * Project templates: HTML with `[[variable]]` placeholders. Shared by the API (rendering a task's prompt)
 * and the console (live preview), so a worker sees exactly what the preview showed.
 */
/** `[[__proto__]]` is plain text: parsed objects drop that key, so no value could reach it (add-task.schema.ts refuses it). */
const PLACEHOLDER = /\[\[\s*(?!__proto__\s*\]\])([A-Za-z_][A-Za-z0-9_.-]*)\s*\]\]/g;

/** Variable names in order of first appearance. */
export function templateVariables(template: string): string[] {
  return [...compile(template).names];
}

/**
 * The template's variables as a set, kept with the compiled template: add_task checks every key of every
 * task against it, and a template is compiled once, not scanned per task.
 */
export function templateVariableSet(template: string): ReadonlySet<string> {
  return compile(template).variables;
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
 * A template split once: literal `text` around the placeholders, `slots[i]` the index in `names` of the
 * variable between text[i] and text[i + 1]. add_task renders one project's template thousands of times a
 * second; scanning it with the placeholder regex each time was the largest cost of our own code on that
 * path (docs/performance.md).
 */
interface CompiledTemplate {
  text: string[];
  names: string[];
  /** `names` as a set. */
  variables: ReadonlySet<string>;
  slots: number[];
  textLength: number;
  /** Whether a placeholder sits inside a tag (an attribute value), see PreparedRender. */
  valueInTag: boolean;
}

const compiled = new Map<string, CompiledTemplate>();
/** Templates are per project; past this many distinct ones the cache starts over rather than growing. */
const MAX_COMPILED = 1000;

function compile(template: string): CompiledTemplate {
  let found = compiled.get(template);
  if (found) return found;
  const parts = template.split(PLACEHOLDER);
  found = { text: [], names: [], variables: new Set(), slots: [], textLength: 0, valueInTag: false };
  // A saved template is sanitized, so a raw `<` or `>` only ever opens or closes a tag.
  let inTag = false;
  for (let i = 0; i < parts.length; i += 2) {
    found.text.push(parts[i]);
    found.textLength += parts[i].length;
    if (i + 1 === parts.length) break;
    const open = parts[i].lastIndexOf('<');
    const close = parts[i].lastIndexOf('>');
    if (open !== close) inTag = open > close;
    found.valueInTag ||= inTag;
    const slot = found.names.indexOf(parts[i + 1]);
    found.slots.push(slot >= 0 ? slot : found.names.push(parts[i + 1]) - 1);
  }
  found.variables = new Set(found.names);
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(template, found);
  return found;
}

/** A prompt measured before it is built. */
export interface PreparedRender {
  /** In UTF-16 code units, as String#length counts. */
  length: number;
  html: () => string;
  /**
   * A value lands inside a tag, in an attribute: escaping keeps it there, but `href="[[link]]"` with
   * `javascript:…` is still a script URL, so such a prompt needs the HTML sanitizer; text values never do.
   */
  valueInTag: boolean;
}

/**
 * Puts each variable's HTML-escaped value in its placeholders; callers make sure every variable has one.
 * A value is escaped once, however many placeholders use it, and the result is measured before it is
 * built: a template of 1,000 `[[a]]` and a 10,000-character value would otherwise build a 60 MB prompt
 * from a 20 KB request before anything could refuse it.
 */
export function prepareRender(template: string, values: Record<string, string>): PreparedRender {
  const { text, names, slots, textLength, valueInTag } = compile(template);
  // Own keys only: a placeholder named like an Object.prototype member must not find that member.
  const escaped = names.map((name) => escapeHtml(Object.hasOwn(values, name) ? values[name] : ''));
  let length = textLength;
  for (const slot of slots) length += escaped[slot].length;
  const html = () => {
    let out = text[0];
    for (let i = 0; i < slots.length; i++) out += escaped[slots[i]] + text[i + 1];
    return out;
  };
  return { length, html, valueInTag };
}

/** The prompt at once, for callers with no limit to keep (the console's preview). */
export function renderTemplate(template: string, values: Record<string, string>): string {
  return prepareRender(template, values).html();
}
