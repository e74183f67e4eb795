import { describe, expect, it } from '@jest/globals';
import { act, render, screen } from '@testing-library/react';
import { useLoad, type LoadState } from '../use-load';

/** A load whose answers the test hands out, one per call, in order. */
function controlledLoads() {
  const pending: Array<{ resolve: (value: string) => void }> = [];
  return {
    pending,
    load: () => new Promise<string>((resolve) => pending.push({ resolve })),
    async answer(index: number, value: string) {
      await act(async () => pending[index].resolve(value));
    },
  };
}

/** Every state the hook renders, tagged with the deps of that render. */
function Probe({ filter, loads, seen }: { filter: string; loads: ReturnType<typeof controlledLoads>; seen: string[] }) {
  const { state, reload } = useLoad(loads.load, [filter]);
  seen.push(`${filter}:${shown(state)}`);
  return (
    <>
      <p data-testid="view">{shown(state)}</p>
      <button type="button" onClick={reload}>
        Refresh
      </button>
    </>
  );
}

function shown(state: LoadState<string>): string {
  return state.status === 'ok' ? state.data : state.status;
}

describe('useLoad', () => {
  it("never renders one deps' data under other deps: new deps start at loading", async () => {
    const loads = controlledLoads();
    const seen: string[] = [];
    const { rerender } = render(<Probe filter="all" loads={loads} seen={seen} />);
    await loads.answer(0, 'rows of all');
    expect(screen.getByTestId('view').textContent).toBe('rows of all');

    seen.length = 0;
    rerender(<Probe filter="outstanding" loads={loads} seen={seen} />);
    // Before the new answer, every render under "outstanding" says loading; none shows all's rows.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s === 'outstanding:loading')).toBe(true);

    await loads.answer(1, 'rows of outstanding');
    expect(screen.getByTestId('view').textContent).toBe('rows of outstanding');
  });

  it('an answer for deps that are gone is dropped', async () => {
    const loads = controlledLoads();
    const seen: string[] = [];
    const { rerender } = render(<Probe filter="all" loads={loads} seen={seen} />);
    rerender(<Probe filter="outstanding" loads={loads} seen={seen} />);
    await loads.answer(0, 'rows of all'); // late: its run was aborted when the deps changed
    expect(screen.getByTestId('view').textContent).toBe('loading');
    await loads.answer(1, 'rows of outstanding');
    expect(screen.getByTestId('view').textContent).toBe('rows of outstanding');
  });

  it('a reload keeps showing the data it has until the new data arrives', async () => {
    const loads = controlledLoads();
    const seen: string[] = [];
    render(<Probe filter="all" loads={loads} seen={seen} />);
    await loads.answer(0, 'rows of all');
    await act(async () => screen.getByRole('button', { name: 'Refresh' }).click());
    expect(loads.pending).toHaveLength(2);
    expect(screen.getByTestId('view').textContent).toBe('rows of all');
    await loads.answer(1, 'rows of all, again');
    expect(screen.getByTestId('view').textContent).toBe('rows of all, again');
  });
});
