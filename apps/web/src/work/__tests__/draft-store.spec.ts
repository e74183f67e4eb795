import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { canKeepDrafts, clearDraft, loadDraft, saveDraft, staleDrafts, userDrafts } from '../draft-store';

const BOX = { label: 'car', center_x: 10, center_y: 10, width: 8, height: 8 };

describe('draft store', () => {
  beforeEach(() => localStorage.clear());

  it("keeps each user's drafts apart: one user's stale drafts never include another's", () => {
    saveDraft('ann', { checkout_id: 'c1', project_uuid: 'p', boxes: [BOX] });
    saveDraft('ben', { checkout_id: 'c2', project_uuid: 'p', boxes: [] });
    expect(loadDraft('ben', 'c1')).toBeNull();
    expect(staleDrafts('ben', []).map((d) => d.checkout_id)).toEqual(['c2']);
    clearDraft('ben', 'c2');
    expect(userDrafts('ann').map((d) => d.boxes)).toEqual([[BOX]]);
  });

  it('keeps the size of the image the boxes were drawn on', () => {
    saveDraft('ann', { checkout_id: 'c1', project_uuid: 'p', boxes: [BOX], image: { width: 960, height: 640 } });
    expect(loadDraft('ann', 'c1')?.image).toEqual({ width: 960, height: 640 });
  });

  it('reads a draft saved before drafts were keyed by user for that checkout only, and clears it', () => {
    localStorage.setItem('crowdbox:draft:c1', JSON.stringify({ checkout_id: 'c1', project_uuid: 'p', boxes: [BOX], saved_at: '' }));
    expect(userDrafts('ann')).toEqual([]);
    expect(loadDraft('ann', 'c1')?.boxes).toEqual([BOX]);
    clearDraft('ann', 'c1');
    expect(localStorage.length).toBe(0);
  });

  describe('when this browser keeps nothing', () => {
    afterEach(() => {
    jest.restoreAllMocks();
  });

    it('says a draft was kept only when it was', () => {
      expect(canKeepDrafts()).toBe(true);
      expect(saveDraft('ann', { checkout_id: 'c1', project_uuid: 'p', boxes: [BOX] })).toBe(true);
      // Storage full, or refused (private windows of some browsers): setItem throws.
      jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
        throw new DOMException('quota exceeded', 'QuotaExceededError');
      });
      expect(saveDraft('ann', { checkout_id: 'c1', project_uuid: 'p', boxes: [BOX, BOX] })).toBe(false);
      expect(canKeepDrafts()).toBe(false);
    });

    it('says so when localStorage cannot even be reached (storage blocked for the site)', () => {
      jest.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
        throw new DOMException('access denied', 'SecurityError');
      });
      expect(canKeepDrafts()).toBe(false);
      expect(saveDraft('ann', { checkout_id: 'c1', project_uuid: 'p', boxes: [BOX] })).toBe(false);
    });
  });
});
