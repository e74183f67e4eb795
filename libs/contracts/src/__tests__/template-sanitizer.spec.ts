import { describe, expect, it } from '@jest/globals';
import { sanitizeTemplate } from '../template-sanitizer';

describe('sanitizeTemplate', () => {
  it('keeps the allowlist and the placeholders, and drops other tags but keeps their text', () => {
    expect(sanitizeTemplate('<h3>Box every [[thing]]</h3><details><summary>Hint</summary><kbd>1</kbd></details>')).toBe('<h3>Box every [[thing]]</h3>Hint1');
    expect(sanitizeTemplate('<section><abbr title="x">car</abbr></section><script>alert(1)</script>')).toBe('car');
  });

  it('drops class, which could only borrow the app\'s own look (its top bar, its menus) for a prompt', () => {
    expect(sanitizeTemplate('<div class="topbar"><a class="button" href="https://evil.example/login">Log in again</a></div>')).toBe(
      '<div><a href="https://evil.example/login" rel="noopener noreferrer nofollow" target="_blank">Log in again</a></div>',
    );
  });

  it('drops handlers and script URLs, and opens links in a new tab without access to the page', () => {
    expect(sanitizeTemplate('<a href="javascript:alert(1)" onclick="x()">go</a>')).toBe('<a rel="noopener noreferrer nofollow" target="_blank">go</a>');
    expect(sanitizeTemplate('<img src="data:image/png;base64,AA" onerror="x()">')).toBe('<img src="data:image/png;base64,AA" />');
  });
});
