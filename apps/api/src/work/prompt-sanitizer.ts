import { sanitizeTemplate } from '@crowdbox/contracts';

const MAX_ENTRIES = 2_000;
const cache = new Map<string, string>();

/**
 * Prompts are rendered from a template sanitized on save, with escaped values; add_task sanitizes the
 * prompt again when a value sits in an attribute (an escaped `javascript:` URL is still one). A prompt
 * stored before that, or under an older, looser allowlist, was not safe as stored, so prompts are
 * sanitized once more when handed to a worker. Tasks of one project share few distinct prompts, so a
 * small cache (oldest entry evicted first) keeps this off the checkout's CPU budget.
 */
export function sanitizePrompt(prompt: string): string {
  const hit = cache.get(prompt);
  if (hit !== undefined) return hit;
  const clean = sanitizeTemplate(prompt);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(prompt, clean);
  return clean;
}
