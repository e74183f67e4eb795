import { describe, expect, it } from '@jest/globals';
import { act, renderHook } from '@testing-library/react';
import type { Box, ImageSize } from '@crowdbox/boxes';
import type { CheckoutResponse } from '@crowdbox/contracts';
import { useTaskBoxes } from '../use-task-boxes';

const CHECKOUT = { checkout_id: 'c1' } as CheckoutResponse;
const box = (center_x: number, center_y: number, width: number, height: number): Box => ({ label: 'car', center_x, center_y, width, height });

/** The hook over a draft store whose saves succeed while `keeps.now` is true; every save is recorded. */
function setUp(initialBoxes: Box[] = [], initialImage?: ImageSize) {
  const keeps = { now: true };
  const saved: Array<{ boxes: Box[]; image: ImageSize | undefined }> = [];
  const otherTab: { saves?: (boxes: Box[], drawnIn: ImageSize | undefined) => void } = {};
  const { result } = renderHook(() =>
    useTaskBoxes({
      checkout: CHECKOUT,
      initialBoxes,
      initialImage,
      onDraft: (_checkout, boxes, image) => {
        saved.push({ boxes, image });
        return keeps.now;
      },
      watchOtherTabs: (_checkout, onBoxes) => {
        otherTab.saves = onBoxes;
        return () => undefined;
      },
    }),
  );
  return { result, keeps, saved, otherTab };
}

describe('the boxes of a task and their draft', () => {
  it('stops promising the draft once a save fails (storage full), and promises it again once one succeeds', () => {
    const { result, keeps } = setUp();
    expect(result.current.kept).toBe(true);
    keeps.now = false;
    act(() => result.current.onChange([box(100, 100, 20, 20)]));
    expect(result.current.kept).toBe(false);
    keeps.now = true;
    act(() => result.current.onChange([]));
    expect(result.current.kept).toBe(true);
  });

  it('scales a draft drawn at another size onto the image as it loaded, and keeps it in that size', () => {
    const { result, saved } = setUp([box(288, 224, 192, 194)], { width: 960, height: 640 });
    act(() => result.current.onImageSize({ width: 480, height: 320 }));
    expect(result.current.boxes).toEqual([box(144, 112, 96, 97)]);
    expect(saved).toEqual([{ boxes: [box(144, 112, 96, 97)], image: { width: 480, height: 320 } }]);
    act(() => result.current.onChange([box(10, 10, 8, 8)]));
    expect(saved[1].image).toEqual({ width: 480, height: 320 });
  });

  it('scales boxes another tab saved before this tab’s image loaded onto the image once it loads', () => {
    // No draft here; the other tab loaded the image at 960x640, this one gets it at 480x320.
    const { result, saved, otherTab } = setUp();
    act(() => otherTab.saves?.([box(288, 224, 192, 194)], { width: 960, height: 640 }));
    expect(result.current.boxes).toEqual([box(288, 224, 192, 194)]);
    act(() => result.current.onImageSize({ width: 480, height: 320 }));
    expect(result.current.boxes).toEqual([box(144, 112, 96, 97)]);
    expect(saved).toEqual([{ boxes: [box(144, 112, 96, 97)], image: { width: 480, height: 320 } }]);
  });
});
