import { sameSize, type Box, type ImageSize } from '@crowdbox/boxes';
import type { CheckoutResponse } from '@crowdbox/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { canKeepDrafts } from './draft-store';
import { boxesInImage } from './image-frame';

export interface TaskBoxesInput {
  checkout: CheckoutResponse;
  /** The draft's boxes, and the size of the image they were drawn on when the draft knows it. */
  initialBoxes: Box[];
  initialImage: ImageSize | undefined;
  /** Keeps the boxes, with the size of the image they are in, as the task's draft; false when they could not be kept. */
  onDraft: (checkout: CheckoutResponse, boxes: Box[], image: ImageSize | undefined) => boolean;
  /** Hears the boxes another tab on the same lease saved; returns the unsubscribe. */
  watchOtherTabs: (checkout: CheckoutResponse, onBoxes: (boxes: Box[], drawnIn: ImageSize | undefined) => void) => () => void;
}

/**
 * The boxes of one leased task and the image size they are in. Every edit is kept as the draft with
 * that size (`kept` says whether it could be); when the image loads at a size other than the draft's (replaced at its URL, served at
 * another size), the boxes are scaled onto it so they stay on the same objects, and kept so; the boxes
 * another tab saves are shown too, in this image's size (not saved again: that tab has just saved them).
 */
export function useTaskBoxes({ checkout, initialBoxes, initialImage, onDraft, watchOtherTabs }: TaskBoxesInput) {
  const [boxes, setBoxes] = useState<Box[]>(initialBoxes);
  const [image, setImage] = useState<ImageSize | null>(null);
  const current = useRef(boxes);
  current.current = boxes;
  // The size the boxes are in: the draft's until the image loads, then the image's own.
  const frame = useRef(initialImage);
  // Whether the draft is being kept (the page promises it only then): known before the first edit, and after each.
  const [kept, setKept] = useState(canKeepDrafts);

  const onChange = useCallback(
    (next: Box[]) => {
      setBoxes(next);
      setKept(onDraft(checkout, next, frame.current));
    },
    [onDraft, checkout],
  );

  const onImageSize = useCallback(
    (size: ImageSize) => {
      const drawnIn = frame.current;
      frame.current = size;
      setImage(size);
      if (!drawnIn || sameSize(drawnIn, size) || current.current.length === 0) return;
      const scaled = boxesInImage(current.current, drawnIn, size);
      setBoxes(scaled);
      setKept(onDraft(checkout, scaled, size));
    },
    [onDraft, checkout],
  );

  useEffect(
    () =>
      watchOtherTabs(checkout, (theirs, drawnIn) => {
        // Before this page knows a size, their boxes are taken in the size they were drawn in, which
        // onImageSize then scales onto the image as it loads here.
        frame.current ??= drawnIn;
        setBoxes(frame.current ? boxesInImage(theirs, drawnIn, frame.current) : theirs);
      }),
    [watchOtherTabs, checkout],
  );

  return { boxes, image, kept, onChange, onImageSize, current };
}
