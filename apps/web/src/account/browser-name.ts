/** How long a User-Agent we cannot read is shown before it is cut: enough to recognise a program by. */
const RAW_LENGTH = 40;

// Order matters: most browsers also claim the names of those they descend from (Edge and Opera say
// "Chrome", Chrome says "Safari", everything says "Mozilla"), so the most specific token is tried first.
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\bHeadlessChrome\//, 'Headless Chrome'],
  [/\bChromium\//, 'Chromium'],
  [/\b(?:Chrome|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

// Android says "Linux" and iOS says "like Mac OS X", so they come before Linux and macOS.
const SYSTEMS: Array<[RegExp, string]> = [
  [/\bAndroid\b/, 'Android'],
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (list: Array<[RegExp, string]>, text: string) => list.find(([pattern]) => pattern.test(text))?.[1];

/**
 * A session's browser in words, from the User-Agent it signed in with: "Firefox on Linux". Only the
 * common browsers and systems are named, as a User-Agent is whatever the client chose to send; anything
 * else (a program's "curl/8.5.0", a browser not listed) is shown as sent, cut short, rather than guessed at.
 */
export function browserName(userAgent: string | null | undefined): string {
  const text = userAgent?.trim();
  if (!text) return 'Unknown browser';
  const browser = first(BROWSERS, text);
  if (!browser) return text.length > RAW_LENGTH ? `${text.slice(0, RAW_LENGTH).trimEnd()}…` : text;
  const system = first(SYSTEMS, text);
  return system ? `${browser} on ${system}` : browser;
}
