import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import type { Box } from '@crowdbox/boxes';
import type { LabelInfo } from '@crowdbox/contracts';
import { Annotator } from '../annotator';
import { KeymapHelp } from '../keymap-help';
import type { AnnotatorProps } from '../../annotator.types';
import { installFakeImage, installStageSize, SLOW_LOAD_MS } from './fake-image';

const LABELS: LabelInfo[] = [
  { name: 'cat', color: '#e6194b' },
  { name: 'dog', color: '#3cb44b' },
];
const BOXES: Box[] = [
  { label: 'cat', center_x: 100, center_y: 100, width: 40, height: 20 },
  { label: 'dog', center_x: 300, center_y: 200, width: 50, height: 50 },
];

/** The annotator as an app uses it: controlled, with every onChange recorded. */
function Controlled(props: Partial<AnnotatorProps> & { changes: Box[][] }) {
  const { changes, ...rest } = props;
  const [boxes, setBoxes] = useState<Box[]>(BOXES);
  return (
    <>
      <input aria-label="comment" />
      <Annotator
        imageUrl="/img/task.jpg"
        labels={LABELS}
        boxes={boxes}
        onChange={(next) => {
          changes.push(next);
          setBoxes(next);
        }}
        {...rest}
      />
    </>
  );
}

const key = (k: string, init: Partial<KeyboardEventInit> = {}) => fireEvent.keyDown(document.activeElement ?? document.body, { key: k, ...init });
const items = () => screen.getAllByTestId('annotator-box-item');

async function renderLoaded(props: Partial<AnnotatorProps> = {}) {
  const changes: Box[][] = [];
  const onImageSize = jest.fn();
  render(<Controlled changes={changes} onImageSize={onImageSize} {...props} />);
  await waitFor(() => expect(onImageSize).toHaveBeenCalledWith({ width: 800, height: 600 }));
  return { changes, onImageSize };
}

/** A viewer sees the labels' colours and names, and no picker: no label buttons, no "Label for new boxes". */
function expectLegendOnly() {
  expect(screen.queryByText('Label for new boxes')).toBeNull();
  expect(screen.queryByText('Label of the selected box')).toBeNull();
  for (const label of LABELS) expect(screen.queryByTestId(`annotator-label-${label.name}`)).toBeNull();
  const legend = screen.getByTestId('annotator-label-legend');
  expect(within(legend).queryAllByRole('button')).toHaveLength(0);
  expect(within(legend).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['cat', 'dog']);
}

let restore: Array<() => void> = [];
beforeEach(() => {
  restore = [installFakeImage(), installStageSize()];
});
afterEach(() => restore.forEach((r) => r()));

describe('Annotator', () => {
  it('loads the image, fits it and exposes the viewport and image size for browser tests', async () => {
    await renderLoaded();
    const stage = screen.getByTestId('annotator-stage');
    expect(JSON.parse(stage.dataset['imageSize'] ?? 'null')).toEqual({ width: 800, height: 600 });
    // 800x600 in 800x600 with 16 px padding: the height limits the scale, and the image is centred.
    const scale = (600 - 32) / 600;
    expect(JSON.parse(stage.dataset['viewport'] ?? 'null')).toEqual({ scale, x: (800 - 800 * scale) / 2, y: 16 });
    expect(screen.getByTestId('annotator-zoom').textContent).toBe('95%');
    expect(stage.querySelector('canvas')).not.toBeNull();
    expect(items()).toHaveLength(2);
    expect(items()[0].textContent).toContain('100,100 40×20');
  });

  it('shows a message when the image cannot be loaded, and no drawing hint', async () => {
    const statuses: string[] = [];
    render(<Annotator imageUrl="/img/broken.jpg" labels={LABELS} boxes={[]} onChange={() => undefined} onImageStatus={(st) => statuses.push(st)} />);
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', "The image didn’t load.");
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.queryByText('Drag on the image, or press N, to draw a box.')).toBeNull();
    expect(statuses).toEqual(['loading', 'error']);
  });

  it('says the image did not load when the browser gives it no size (an SVG with only a viewBox, in some browsers)', async () => {
    restore.shift()?.();
    restore.push(installFakeImage({ width: 0, height: 0 }));
    const statuses: string[] = [];
    const onImageSize = jest.fn();
    render(<Annotator imageUrl="/img/viewbox-only.svg" labels={LABELS} boxes={[]} onChange={() => undefined} onImageSize={onImageSize} onImageStatus={(st) => statuses.push(st)} />);
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', "The image didn’t load.");
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(statuses).toEqual(['loading', 'error']);
    expect(onImageSize).not.toHaveBeenCalled();
  });

  it('loads the image again on Retry, with a cache-busting URL, and gives the focus to the stage', async () => {
    restore.shift()?.();
    const loads: string[] = [];
    restore.push(installFakeImage(undefined, (url) => (loads.push(url), url.includes('crowdbox_retry') ? 'load' : 'error')));
    const onImageSize = jest.fn();
    render(<Annotator imageUrl="https://images.example/a.jpg" labels={LABELS} boxes={[]} onChange={() => undefined} onImageSize={onImageSize} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    expect(document.activeElement).toBe(screen.getByTestId('annotator-stage'));
    await waitFor(() => expect(onImageSize).toHaveBeenCalledWith({ width: 800, height: 600 }));
    expect(screen.queryByRole('alert')).toBeNull();
    // The first load tried CORS, then without it; the retry busts the cache.
    expect(loads).toEqual(['https://images.example/a.jpg', 'https://images.example/a.jpg', 'https://images.example/a.jpg?crowdbox_retry=1']);
    expect(screen.getByText('Drag on the image, or press N, to draw a box.')).toBeTruthy();
  });

  it('says the image did not load when its host does not answer within 20 s', async () => {
    jest.useFakeTimers();
    try {
      render(<Annotator imageUrl="/img/hang.jpg" labels={LABELS} boxes={[]} />);
      expect(screen.getByText('Loading image…')).toBeTruthy();
      act(() => void jest.advanceTimersByTime(19_900));
      expect(screen.queryByRole('alert')).toBeNull();
      act(() => void jest.advanceTimersByTime(200));
      expect(screen.getByRole('alert').textContent).toBe("The image didn’t load.");
      expect(screen.queryByText('Loading image…')).toBeNull();
      expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps loading an image that takes longer than 20 s, and shows it when it arrives', async () => {
    jest.useFakeTimers();
    try {
      const statuses: string[] = [];
      const onImageSize = jest.fn();
      render(<Annotator imageUrl="/img/slow.jpg" labels={LABELS} boxes={[]} onChange={() => undefined} onImageSize={onImageSize} onImageStatus={(st) => statuses.push(st)} />);
      act(() => void jest.advanceTimersByTime(20_100));
      // Said at 20 s, with Retry, as for a host that never answers; the download goes on meanwhile.
      expect(screen.getByRole('alert').textContent).toBe("The image didn’t load.");
      await act(async () => void jest.advanceTimersByTime(SLOW_LOAD_MS));
      expect(onImageSize).toHaveBeenCalledWith({ width: 800, height: 600 });
      expect(screen.queryByRole('alert')).toBeNull();
      expect(statuses).toEqual(['loading', 'error', 'loaded']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps the download on Retry pressed before the load failed (past 20 s on a slow line), and shows the image when it arrives', async () => {
    restore.shift()?.();
    const loads: string[] = [];
    restore.push(installFakeImage(undefined, (url) => (loads.push(url), 'slow')));
    jest.useFakeTimers();
    try {
      const statuses: string[] = [];
      const onImageSize = jest.fn();
      render(<Annotator imageUrl="/img/big.jpg" labels={LABELS} boxes={[]} onChange={() => undefined} onImageSize={onImageSize} onImageStatus={(st) => statuses.push(st)} />);
      act(() => void jest.advanceTimersByTime(20_100));
      act(() => void fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
      // Waiting for the same download again: no new load, which would start the image over from nothing.
      expect(screen.getByText('Loading image…')).toBeTruthy();
      expect(screen.queryByRole('alert')).toBeNull();
      expect(document.activeElement).toBe(screen.getByTestId('annotator-stage'));
      await act(async () => void jest.advanceTimersByTime(SLOW_LOAD_MS - 20_100));
      expect(onImageSize).toHaveBeenCalledWith({ width: 800, height: 600 });
      expect(loads).toEqual(['/img/big.jpg']);
      expect(statuses).toEqual(['loading', 'error', 'loading', 'loaded']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('says again that the image did not load 20 s after a Retry of a load that still has no answer', async () => {
    jest.useFakeTimers();
    try {
      render(<Annotator imageUrl="/img/hang.jpg" labels={LABELS} boxes={[]} />);
      act(() => void jest.advanceTimersByTime(20_100));
      act(() => void fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
      act(() => void jest.advanceTimersByTime(19_900));
      expect(screen.getByText('Loading image…')).toBeTruthy();
      act(() => void jest.advanceTimersByTime(200));
      expect(screen.getByRole('alert').textContent).toBe("The image didn’t load.");
    } finally {
      jest.useRealTimers();
    }
  });

  it("names each row of the box list by what it shows, after its number", async () => {
    await renderLoaded();
    // The accessible name, as computed from the row's content: its hidden number, then the label and the box's centre and size as shown.
    const select = within(items()[1]).getByRole('button', { name: /^Select box 2: dog \d+,\d+ \d+×\d+$/ });
    expect(select.getAttribute('aria-label')).toBeNull();
  });

  it('selects from the list, nudges, relabels by key and deletes, emitting integer boxes', async () => {
    const { changes } = await renderLoaded();
    fireEvent.click(within(items()[1]).getByRole('button', { name: /Select box 2/ }));
    expect(items()[1].dataset['selected']).toBe('true');

    act(() => void key('ArrowLeft', { shiftKey: true }));
    expect(changes.at(-1)?.[1]).toEqual({ label: 'dog', center_x: 290, center_y: 200, width: 50, height: 50 });
    act(() => void key('1'));
    expect(changes.at(-1)?.[1].label).toBe('cat');
    act(() => void key('Delete'));
    expect(changes.at(-1)).toEqual([BOXES[0]]);
    act(() => void key('z', { ctrlKey: true }));
    expect(changes.at(-1)?.[1]).toEqual({ label: 'cat', center_x: 290, center_y: 200, width: 50, height: 50 });
    expect(changes.every((boxes) => boxes.every((b) => [b.center_x, b.center_y, b.width, b.height].every(Number.isInteger)))).toBe(true);
  });

  it('relabels the selection with the picker, or picks the label for new boxes', async () => {
    const { changes } = await renderLoaded();
    fireEvent.click(screen.getByTestId('annotator-label-dog'));
    expect(changes).toHaveLength(0);
    expect(screen.getByTestId('annotator-label-dog').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(items()[0]).getByRole('button', { name: /Select box 1/ }));
    fireEvent.click(screen.getByTestId('annotator-label-dog'));
    expect(changes.at(-1)?.[0].label).toBe('dog');
  });

  it('deletes a box with its button in the list', async () => {
    const { changes } = await renderLoaded();
    fireEvent.click(screen.getByRole('button', { name: 'Delete box 1' }));
    expect(changes.at(-1)).toEqual([BOXES[1]]);
    expect(items()).toHaveLength(1);
  });

  it('keeps the keyboard focus in the list when the last row deletes itself', async () => {
    await renderLoaded();
    const del = (n: number) => screen.getByRole('button', { name: `Delete box ${n}` });
    del(2).focus();
    fireEvent.click(del(2));
    // The row above's ×, not the page's start.
    expect(document.activeElement).toBe(del(1));
    fireEvent.click(del(1));
    expect(screen.queryAllByTestId('annotator-box-item')).toHaveLength(0);
    expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Boxes' }));
  });

  it('toggles the keymap with ? and closes it with Escape', async () => {
    await renderLoaded();
    expect(screen.queryByTestId('annotator-keymap')).toBeNull();
    act(() => void key('?', { shiftKey: true }));
    expect(screen.getByTestId('annotator-keymap').textContent).toContain('Ctrl/⌘+Z');
    act(() => void key('Escape'));
    expect(screen.queryByTestId('annotator-keymap')).toBeNull();
  });

  it('gives the focus back to the ? button that opened the keymap when its Close button closes it', async () => {
    await renderLoaded();
    const open = screen.getByRole('button', { name: 'Keyboard shortcuts' });
    open.focus();
    fireEvent.click(open);
    const close = within(screen.getByTestId('annotator-keymap')).getByRole('button', { name: 'Close (Esc)' });
    close.focus();
    fireEvent.click(close);
    expect(screen.queryByTestId('annotator-keymap')).toBeNull();
    expect(document.activeElement).toBe(open);
  });

  it('gives the focus back to the stage when the keymap opened by ? on it is closed by its Close button', async () => {
    await renderLoaded();
    const stage = screen.getByTestId('annotator-stage');
    stage.focus();
    act(() => void key('?', { shiftKey: true }));
    const close = within(screen.getByTestId('annotator-keymap')).getByRole('button', { name: 'Close (Esc)' });
    close.focus();
    fireEvent.click(close);
    expect(document.activeElement).toBe(stage);
  });

  it('changes no box by key while the keymap covers them', async () => {
    const { changes } = await renderLoaded();
    fireEvent.click(within(items()[0]).getByRole('button', { name: /Select box 1/ }));
    act(() => void key('?', { shiftKey: true }));
    for (const k of ['n', 'Delete', 'ArrowRight', '2']) act(() => void key(k));
    expect(changes).toEqual([]);
    expect(items()).toHaveLength(2);
    act(() => void key('Escape'));
    act(() => void key('Delete'));
    expect(items()).toHaveLength(1);
  });

  it('fires no editor key while the focus is in a text field', async () => {
    const { changes } = await renderLoaded();
    fireEvent.click(within(items()[0]).getByRole('button', { name: /Select box 1/ }));
    const input = screen.getByLabelText('comment');
    input.focus();
    act(() => void fireEvent.keyDown(input, { key: 'Backspace' }));
    act(() => void fireEvent.keyDown(input, { key: '2' }));
    expect(changes).toHaveLength(0);
  });

  it('zooms by key around the centre and fits again with 0', async () => {
    await renderLoaded();
    act(() => void key('+', { shiftKey: true }));
    expect(screen.getByTestId('annotator-zoom').textContent).toBe('118%');
    act(() => void key('0'));
    expect(screen.getByTestId('annotator-zoom').textContent).toBe('95%');
  });

  it('says the zoom in a status only once it stops changing, not at every step', async () => {
    await renderLoaded();
    const status = screen.getByTestId('annotator-zoom-status');
    expect(status.getAttribute('role')).toBe('status');
    expect(screen.getByTestId('annotator-zoom').getAttribute('aria-live')).toBeNull();
    act(() => void key('+'));
    act(() => void key('+'));
    // Shown at once, said later, and only where it settled.
    expect(screen.getByTestId('annotator-zoom').textContent).toBe('148%');
    expect(status.textContent).toBe('');
    await waitFor(() => expect(status.textContent).toBe('Zoom 148%'));
  });

  it('lets a keyboard-only user make a box with N and shape it, saying the selected box at each step', async () => {
    const { changes } = await renderLoaded();
    const status = screen.getByTestId('annotator-selection-status');
    expect(status.getAttribute('role')).toBe('status');
    expect(status.textContent).toBe('');
    screen.getByTestId('annotator-stage').focus();
    act(() => void key('n'));
    expect(changes.at(-1)).toEqual([...BOXES, { label: 'cat', center_x: 400, center_y: 300, width: 150, height: 150 }]);
    expect(items()[2].dataset['selected']).toBe('true');
    expect(status.textContent).toBe('Box 3 of 3, cat, 150×150 at 325,225');
    act(() => void key('ArrowRight'));
    expect(status.textContent).toBe('Box 3 of 3, cat, 150×150 at 326,225');
    act(() => void key('2'));
    expect(status.textContent).toBe('Box 3 of 3, dog, 150×150 at 326,225');
    act(() => void key('Tab'));
    expect(status.textContent).toBe('Box 1 of 3, cat, 40×20 at 80,90');
  });

  it('only views when read-only: no edits, no delete buttons, no label picker', async () => {
    const { changes } = await renderLoaded({ readOnly: true });
    fireEvent.click(within(items()[0]).getByRole('button', { name: /Select box 1/ }));
    act(() => void key('Delete'));
    act(() => void key('ArrowLeft'));
    act(() => void key('2'));
    expect(changes).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Delete box 1' })).toBeNull();
    expectLegendOnly();
  });

  it('shows no label picker without onChange either, and the picker to an editor', async () => {
    const { unmount } = render(<Annotator imageUrl="/img/a.jpg" labels={LABELS} boxes={BOXES} />);
    expectLegendOnly();
    unmount();
    await renderLoaded();
    expect(screen.queryByTestId('annotator-label-legend')).toBeNull();
    expect(screen.getByText('Label for new boxes')).toBeTruthy();
    expect(screen.getByTestId('annotator-label-cat')).toHaveProperty('disabled', false);
  });

  it('takes a new boxes prop as the value without echoing it through onChange', async () => {
    const onChange = jest.fn();
    const { rerender } = render(<Annotator imageUrl="/img/a.jpg" labels={LABELS} boxes={BOXES} onChange={onChange} />);
    rerender(<Annotator imageUrl="/img/a.jpg" labels={LABELS} boxes={[BOXES[1]]} onChange={onChange} />);
    expect(items()).toHaveLength(1);
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('Annotator with a box limit', () => {
  const limit = () => screen.getByTestId('annotator-box-limit');

  it('says nothing of a limit without maxBoxes, and has no status region for it', async () => {
    await renderLoaded();
    expect(screen.queryByTestId('annotator-box-limit')).toBeNull();
    expect(screen.getByText('Boxes (2)')).toBeTruthy();
  });

  it('shows the count against the limit, with an empty status region below it', async () => {
    await renderLoaded({ maxBoxes: 3 });
    expect(screen.getByText('Boxes (2 / 3)')).toBeTruthy();
    // The live region is there, empty, before it has anything to say, so what appears in it is announced.
    expect(limit().getAttribute('role')).toBe('status');
    expect(limit().textContent).toBe('');
    expect(screen.getByTestId('annotator-stage').style.cursor).toBe('crosshair');
  });

  it('says the limit once it is reached, offers no drawing cursor, and a deletion clears it', async () => {
    const { changes } = await renderLoaded({ maxBoxes: 2 });
    expect(limit().textContent).toBe('This task takes at most 2 boxes. Delete one to draw another.');
    expect(screen.getByTestId('annotator-stage').style.cursor).toBe('default');
    fireEvent.click(screen.getByRole('button', { name: 'Delete box 2' }));
    expect(changes.at(-1)).toEqual([BOXES[0]]);
    expect(limit().textContent).toBe('');
    expect(screen.getByTestId('annotator-stage').style.cursor).toBe('crosshair');
  });

  it('keeps boxes beyond the limit and says how many to delete; an undo that would add one back says the limit again', async () => {
    const { changes } = await renderLoaded({ maxBoxes: 1 });
    expect(items()).toHaveLength(2);
    expect(limit().textContent).toBe('This task takes at most 1 box: delete 1 of these 2.');

    fireEvent.click(screen.getByRole('button', { name: 'Delete box 2' }));
    expect(changes.at(-1)).toEqual([BOXES[0]]);
    const message = limit().firstChild;
    expect(limit().textContent).toBe('This task takes at most 1 box. Delete one to draw another.');
    act(() => void key('z', { ctrlKey: true }));
    expect(items()).toHaveLength(1);
    expect(changes).toHaveLength(1);
    // The same words in a new node: a screen reader announces them again.
    expect(limit().textContent).toBe('This task takes at most 1 box. Delete one to draw another.');
    expect(limit().firstChild).not.toBe(message);
  });

  it('says nothing of the limit to a viewer', async () => {
    await renderLoaded({ maxBoxes: 1, readOnly: true });
    expect(screen.queryByTestId('annotator-box-limit')).toBeNull();
    expect(screen.getByText('Boxes (2)')).toBeTruthy();
  });
});

describe('KeymapHelp', () => {
  it('lists the edit keys to an editor and only the viewing keys to a viewer', () => {
    const { unmount } = render(<KeymapHelp />);
    expect(screen.getByTestId('annotator-keymap').textContent).toContain('Delete the selected box');
    expect(screen.getByTestId('annotator-keymap').textContent).toContain('Draw a box');
    const placeRow = screen.getByText(/^New box in the middle of the view/).closest('tr');
    expect(placeRow?.querySelector('kbd')?.textContent).toBe('N');
    unmount();
    render(<KeymapHelp readOnly />);
    const text = screen.getByTestId('annotator-keymap').textContent ?? '';
    expect(text).not.toContain('Delete the selected box');
    expect(text).not.toContain('Draw a box');
    expect(text).not.toContain('New box');
    expect(text).toContain('Zoom at the cursor');
    expect(text).toContain('Select the next box');
  });
});
