import { describe, expect, it } from '@jest/globals';
import { sanitizePrompt } from '../task-prompt';

describe('sanitizePrompt (the worker\'s second line behind the server\'s sanitizer)', () => {
  it('drops class and style, which could only borrow or change the page\'s own look', () => {
    expect(sanitizePrompt('<p class="topbar" style="position:fixed">Draw <b class="button">boxes</b></p>')).toBe('<p>Draw <b>boxes</b></p>');
  });

  it('drops scripts, handlers and forms', () => {
    expect(sanitizePrompt('<img src="https://x.example/a.png" onerror="alert(1)"><script>alert(2)</script><form><input></form>ok')).toBe(
      '<img src="https://x.example/a.png">ok',
    );
  });
});
