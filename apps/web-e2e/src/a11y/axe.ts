import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/**
 * axe-core (https://github.com/dequelabs/axe-core) run in the page: the automated half of an accessibility
 * check (names, labels, roles, landmarks, headings, colour contrast, ARIA use). It cannot tell whether a
 * page is usable with a screen reader or the keyboard; keyboard.spec and the focus tests cover some of that.
 */
const AXE_SOURCE = readFileSync(require.resolve('axe-core'), 'utf8');

/**
 * The impacts that fail a test. "minor" and "moderate" ones are not enforced (yet); A11Y_IMPACTS (say
 * `A11Y_IMPACTS=minor,moderate,serious,critical`) lists them too, to see what is left.
 */
const FAILING_IMPACTS = new Set((process.env.A11Y_IMPACTS ?? 'serious,critical').split(','));

/**
 * Violations known and not fixed here, each with where the fix belongs: matched by rule and element, so
 * any other element that breaks the same rule still fails. Listed in docs/accessibility.md; remove an
 * entry with its fix (the spec then checks that element too).
 */
export const KNOWN_VIOLATIONS: Array<{ rule: string; target: RegExp; why: string }> = [];

/**
 * Rules enforced whatever their impact: heading-order is "moderate" to axe, but a skipped level makes a
 * screen reader's list of headings misleading, and the pages have none.
 */
const ALWAYS_ENFORCED = new Set(['heading-order']);

/**
 * Rules whose "needs review" answers count as violations too. axe reports aria-label on an element with
 * no role (a <pre>, say) as needing review, since some screen readers read it and most ignore it: a name
 * nobody hears, so it fails here.
 */
const ENFORCED_NEEDS_REVIEW = new Set(['aria-prohibited-attr']);

function isKnown(rule: string, target: string): boolean {
  return KNOWN_VIOLATIONS.some((k) => k.rule === rule && k.target.test(target));
}

export interface Violation {
  state: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
  summary: string;
}

interface AxeResultsLike {
  violations: Array<{
    id: string;
    impact?: string | null;
    help: string;
    nodes: Array<{ target: unknown[]; failureSummary?: string }>;
  }>;
}

/**
 * Runs axe on what `page` shows now (`state` names it in the report) and returns its serious and critical
 * violations. axe is evaluated through the DevTools protocol rather than as a <script> tag, so the app's
 * Content-Security-Policy does not have to allow it; it is injected again after each navigation.
 */
export async function axeViolations(page: Page, state: string): Promise<Violation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, options: object) => Promise<unknown> } }).axe;
    const { violations, incomplete } = (await axe.run(document, { resultTypes: ['violations', 'incomplete'] })) as AxeResultsLike & { incomplete: AxeResultsLike['violations'] };
    return { violations, incomplete };
  });
  return [...results.violations, ...results.incomplete.filter((v) => ENFORCED_NEEDS_REVIEW.has(v.id))]
    .filter((v) => FAILING_IMPACTS.has(v.impact ?? '') || ALWAYS_ENFORCED.has(v.id))
    .map((v) => {
      const nodes = v.nodes.map((n) => ({ target: n.target.map(String).join(' '), summary: n.failureSummary ?? '' })).filter((n) => !isKnown(v.id, n.target));
      return {
        state,
        rule: v.id,
        impact: v.impact ?? '',
        help: v.help,
        targets: nodes.map((n) => n.target),
        // axe's "Fix any of the following: …" of the first element, on one line: what to change.
        summary: (nodes[0]?.summary ?? '').replace(/\s+/g, ' ').trim().slice(0, 300),
      };
    })
    .filter((v) => v.targets.length > 0);
}

/** The violations as a readable list, one rule per paragraph: the state, the rule, what to fix, where. */
export function describeViolations(violations: Violation[]): string {
  return violations
    .map((v) => `[${v.state}] ${v.rule} (${v.impact}): ${v.help}\n  ${v.summary}\n  elements: ${v.targets.slice(0, 8).join(' | ')}${v.targets.length > 8 ? ` … and ${v.targets.length - 8} more` : ''}`)
    .join('\n\n');
}

/**
 * Collects the violations of every state a test visits, so one failing run lists all of them, and
 * fails at the end (`assertNone`) with the list.
 */
export class AxeAudit {
  private readonly found: Violation[] = [];
  readonly checked: string[] = [];

  async check(page: Page, state: string): Promise<void> {
    this.checked.push(state);
    this.found.push(...(await axeViolations(page, state)));
  }

  assertNone(): void {
    if (this.found.length === 0) return;
    const rules = new Set(this.found.map((v) => v.rule));
    throw new Error(
      `axe found ${this.found.length} violation(s) of ${rules.size} rule(s) (${[...rules].join(', ')}) in ${this.checked.length} page state(s):\n\n${describeViolations(this.found)}`,
    );
  }
}
