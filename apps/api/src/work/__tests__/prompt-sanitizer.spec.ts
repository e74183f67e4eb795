import { LIMITS } from '@crowdbox/contracts';
import { cachedPromptChars, sanitizePrompt } from '../prompt-sanitizer';

describe('sanitizePrompt', () => {
  it('answers a cached prompt as sanitized the first time', () => {
    const prompt = '<p onclick="x()">Draw the <b>cars</b></p><script>alert(1)</script>';
    const clean = sanitizePrompt(prompt);
    expect(clean).toBe('<p>Draw the <b>cars</b></p>');
    expect(sanitizePrompt(prompt)).toBe(clean);
  });

  it('caches by characters, not only by count: distinct prompts at the size limit cannot hold gigabytes', () => {
    // 40 distinct prompts of 1 Mi characters: kept by count alone (2,000 entries), that is ~80 MB here
    // and 4 GB at the cap; the cache holds at most 16 Mi characters.
    for (let i = 0; i < 40; i++) sanitizePrompt(`<p>${i}</p>` + 'x'.repeat(LIMITS.promptChars - 20));
    expect(cachedPromptChars()).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(cachedPromptChars()).toBeGreaterThan(0);
  });
});
