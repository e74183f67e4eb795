/** What ending the other sessions did, in words: `2 other sessions were signed out.` */
export function signedOutText(count: number): string {
  if (count === 0) return 'No other session was signed in.';
  return count === 1 ? '1 other session was signed out.' : `${count} other sessions were signed out.`;
}
