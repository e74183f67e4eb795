import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../api/client';
import { labelsChangedMessage, refusedLabels } from '../changed-labels';

const box = (label: string) => ({ label, center_x: 10, center_y: 10, width: 8, height: 8 });
const BOXES = [box('car'), box('person'), box('car'), box('truck')];
const notALabel = (i: number, label: string) => ({ field: `annotations.${i}.label`, detail: `"${label}" is not a label of this project; use one of: vehicle` });

describe('a submit refused for labels', () => {
  it("names the refused boxes' labels once each, from the fields annotations.N.label only", () => {
    const error = new ApiError(422, [notALabel(0, 'car'), { field: 'annotations.1', detail: 'outside the image' }, notALabel(2, 'car'), notALabel(3, 'truck')]);
    expect(refusedLabels(error, BOXES)).toEqual(['car', 'truck']);
  });

  it('is not a label refusal without such a field, or for another status', () => {
    expect(refusedLabels(new ApiError(422, [{ field: 'root', detail: 'checkout has expired' }]), BOXES)).toBeNull();
    expect(refusedLabels(new ApiError(400, [notALabel(0, 'car')]), BOXES)).toBeNull();
    expect(refusedLabels(new Error('boom'), BOXES)).toBeNull();
  });

  it('says how many boxes to relabel and with which labels, or to reload when the labels could not be read', () => {
    const labels = [{ name: 'vehicle', color: '#000' }, { name: 'person', color: '#111' }];
    expect(labelsChangedMessage(['car', 'truck'], BOXES, labels)).toBe(
      'The requester changed the labels while you worked: 3 boxes have a label this project no longer uses (car, truck). ' +
        'Its labels are now: vehicle, person. Select each grey box, pick one of these labels, then submit again.',
    );
    expect(labelsChangedMessage(['car'], BOXES, null)).toMatch(/^Some of your boxes have a label this project no longer uses \(car\)\. Reload the page/);
  });
});
