import { beforeEach, describe, expect, it } from '@jest/globals';
import { clearFormDraft, formDraftKey, loadFormDraft, MAX_DRAFT_AGE_MS, saveFormDraft } from '../form-draft-store';
import { emptyDraft, isProjectDraft, type ProjectDraft } from '../project-draft';

const NEW = '/console/projects/new';
const T0 = Date.parse('2025-03-01T12:00:00Z');

describe('form draft store', () => {
  beforeEach(() => sessionStorage.clear());

  it('gives a draft back to the user who typed it, on that route, and never to another user', () => {
    const draft = { ...emptyDraft(), name: 'street-2025', template: '<p>long</p>' };
    saveFormDraft('ann', NEW, draft, null, T0);
    expect(loadFormDraft('ben', NEW, isProjectDraft, null, T0)).toBeNull();
    expect(loadFormDraft('ann', '/console/projects/p1/settings', isProjectDraft, null, T0)).toBeNull();
    expect(loadFormDraft('ann', NEW, isProjectDraft, null, T0 + 1000)).toEqual({ status: 'restored', value: draft });
    clearFormDraft('ann', NEW);
    expect(loadFormDraft('ann', NEW, isProjectDraft, null, T0)).toBeNull();
  });

  it('drops a draft older than a day', () => {
    saveFormDraft('ann', NEW, emptyDraft(), null, T0);
    expect(loadFormDraft('ann', NEW, isProjectDraft, null, T0 + MAX_DRAFT_AGE_MS)?.status).toBe('restored');
    expect(loadFormDraft('ann', NEW, isProjectDraft, null, T0 + MAX_DRAFT_AGE_MS + 1)).toBeNull();
    expect(sessionStorage.getItem(formDraftKey('ann', NEW))).toBeNull();
  });

  it('drops a draft typed over another version of the server data and says so, so it cannot overwrite newer data', () => {
    const route = '/console/projects/p1/settings';
    saveFormDraft('ann', route, emptyDraft(), '2025-03-01T11:00:00.000Z', T0);
    expect(loadFormDraft('ann', route, isProjectDraft, '2025-03-01T11:30:00.000Z', T0)).toEqual({ status: 'outdated' });
    expect(loadFormDraft('ann', route, isProjectDraft, '2025-03-01T11:00:00.000Z', T0)).toBeNull();
  });

  it('drops what is not a draft of this form: broken JSON, or an older shape', () => {
    sessionStorage.setItem(formDraftKey('ann', NEW), '{not json');
    expect(loadFormDraft('ann', NEW, isProjectDraft, null, T0)).toBeNull();
    const withoutLabels: Partial<ProjectDraft> = emptyDraft();
    delete withoutLabels.labels;
    saveFormDraft('ann', NEW, withoutLabels, null, T0);
    expect(loadFormDraft('ann', NEW, isProjectDraft, null, T0)).toBeNull();
    expect(sessionStorage.length).toBe(0);
  });
});
