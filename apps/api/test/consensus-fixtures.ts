import type { Annotation } from '@crowdbox/contracts';

/**
 * Boxes with a known consensus (API.md §5), shared by the results tests: three workers' cars that
 * merge into one, a person two workers drew identically (kept) and one only one drew (dropped).
 */
/** The contract's box (libs/contracts). */
export type Box = Annotation;

/** Edges → the contract's box. */
export const box = (label: string, x0: number, y0: number, x1: number, y1: number): Box => ({
  label,
  center_x: (x0 + x1) / 2,
  center_y: (y0 + y1) / 2,
  width: x1 - x0,
  height: y1 - y0,
});

// Three nearly identical cars (pairwise IoU 0.907, 0.943, 0.890: all merged at the default threshold
// 0.5, none at 0.95). Per-edge medians: x0 101 (w3), y0 50 (w1), x1 201 (w3), y1 152 (w1) -> center
// 151,101, size 100x102 (no worker drew exactly that).
export const CAR_1 = box('car', 100, 50, 200, 152);
export const CAR_2 = box('car', 102, 48, 204, 150);
export const CAR_3 = box('car', 101, 52, 201, 154);
export const MERGED_CAR = { label: 'car', center_x: 151, center_y: 101, width: 100, height: 102 };
// A person only worker 1 drew (1 of 3: dropped), and one workers 2 and 3 both drew (2 of 3: kept).
export const LONE_PERSON = box('person', 400, 300, 440, 380);
export const SHARED_PERSON = box('person', 280, 160, 320, 240);

/**
 * The three workers' submissions [CAR_1, LONE_PERSON], [SHARED_PERSON, CAR_2], [CAR_3, SHARED_PERSON]:
 * their consensus at threshold 0.5, and at 0.95 (no car cluster reaches 2 of 3).
 */
export const STANDARD_SUBMISSIONS = [
  [CAR_1, LONE_PERSON],
  [SHARED_PERSON, CAR_2],
  [CAR_3, SHARED_PERSON],
];
export const STANDARD_AT_05 = [
  { ...MERGED_CAR, support: 3, agreement: expect.any(Number) },
  { ...SHARED_PERSON, support: 2, agreement: 1 },
];
export const STANDARD_AT_095 = [{ ...SHARED_PERSON, support: 2, agreement: 1 }];
