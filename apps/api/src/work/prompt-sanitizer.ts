import { sanitizeTemplate } from '@crowdbox/contracts';
import { LRUCache } from 'lru-cache';

/**
 * At most this many characters of prompts and their sanitized forms together (~32 MB of UTF-16). A
 * prompt may hold 1 Mi characters (LIMITS.promptChars), so a cap on entries alone let a requester's
 * tasks of distinct large prompts, checked out in turn, hold gigabytes.
 */
const MAX_CACHED_CHARS = 16 * 1024 * 1024;

const cache = new LRUCache<string, string>({
  max: 2_000,
  maxSize: MAX_CACHED_CHARS,
  sizeCalculation: (clean, prompt) => prompt.length + clean.length + 1,
});

/**
 * Prompts are rendered from a template sanitized on save, with escaped values; add_task sanitizes the
 * prompt again when a value sits in an attribute (an escaped `javascript:` URL is still one). A prompt
 * stored before that, or under an older, looser allowlist, was not safe as stored, so prompts are
 * sanitized once more when handed to a worker. Tasks of one project share few distinct prompts, so a
 * small cache (least recently used out first) keeps this off the checkout's CPU budget.
 */
export function sanitizePrompt(prompt: string): string {
  const hit = cache.get(prompt);
  if (hit !== undefined) return hit;
  const clean = sanitizeTemplate(prompt);
  cache.set(prompt, clean);
  return clean;
}

/** The characters the cache holds (prompts and their sanitized forms), for tests. */
export function cachedPromptChars(): number {
  return cache.calculatedSize;
}
