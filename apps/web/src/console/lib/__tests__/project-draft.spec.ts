import { describe, expect, it } from '@jest/globals';
import { sanitizeTemplate } from '@crowdbox/contracts';
import { droppedLabels, emptyDraft, estimateCents, nextLabelColor, previewValues, templateChangedBySave, toProjectBody, visibleVariables, type ProjectDraft } from '../project-draft';

function draft(overrides: Partial<ProjectDraft>): ProjectDraft {
  return { ...emptyDraft(), ...overrides };
}

describe('the project form model', () => {
  it('lists the template variables in order, then the image variable when the template does not use it', () => {
    const d = draft({ template: '<p>[[b]] [[a]] [[ b ]]</p>', image_variable: 'photo' });
    expect(visibleVariables(d)).toEqual(['b', 'a', 'photo']);
    expect(visibleVariables(draft({ template: '<img src="[[photo]]">[[x]]', image_variable: 'photo' }))).toEqual(['photo', 'x']);
  });

  it('sends a default for each template variable, null for none, and the image variable only with a default', () => {
    const d = draft({
      template: '[[thing]] in [[place]]',
      variables: {
        thing: { default: 'car', sample: 'bus' },
        place: { default: '', sample: 'Main St' },
        image_url: { default: '', sample: '' },
        gone: { default: 'old', sample: '' },
      },
    });
    expect(toProjectBody(d).variables).toEqual({ thing: 'car', place: null });
    d.variables.image_url = { default: 'https://example.com/a.png', sample: '' };
    expect(toProjectBody(d).variables).toEqual({ thing: 'car', place: null, image_url: 'https://example.com/a.png' });
  });

  it('sends numbers as numbers and leaves what is not a number for the server to name', () => {
    const body = toProjectBody(draft({ default_reward: ' 25 ', default_required_submissions: '', allowed_completion_time_seconds: 'soon' }));
    expect(body.default_reward).toBe(25);
    expect(body.default_required_submissions).toBeNaN();
    expect(body.allowed_completion_time_seconds).toBeNaN();
    // JSON turns NaN into null, which the API refuses with a message under the field.
    expect(JSON.parse(JSON.stringify(body)).allowed_completion_time_seconds).toBeNull();
  });

  it('previews with the sample, else the default, else the placeholder name', () => {
    const d = draft({
      template: '[[a]] [[b]] [[c]]',
      variables: { a: { default: 'x', sample: 'y' }, b: { default: 'x', sample: '' }, c: { default: '', sample: '' } },
    });
    expect(previewValues(d)).toMatchObject({ a: 'y', b: 'x', c: '[c]' });
  });

  it('estimates tasks x submissions x reward in cents, and nothing while an input is not a number', () => {
    expect(estimateCents('100', '3', '25')).toBe(7500);
    expect(estimateCents('0', '3', '25')).toBe(0);
    expect(estimateCents('', '3', '25')).toBeNull();
    expect(estimateCents('10', 'x', '25')).toBeNull();
    expect(estimateCents('10', '3', '-1')).toBeNull();
  });

  it('estimates only whole tasks, submissions and cents, as the API takes them', () => {
    expect(estimateCents('2.5', '3', '25')).toBeNull();
    expect(estimateCents('100', '3', '12.5')).toBeNull();
    expect(estimateCents('100', '1.5', '25')).toBeNull();
  });

  it('gives a new label the first palette colour not yet used', () => {
    expect(nextLabelColor([{ name: 'a', color: '#1F77B4' }])).toBe('#ff7f0e');
  });

  it('tells a template the allowlist changed from one it only spelled differently', () => {
    const same = '<p>Line one<br>line [[two]]</p>';
    expect(sanitizeTemplate(same)).not.toBe(same); // `<br />`
    expect(templateChangedBySave(same, sanitizeTemplate(same))).toBe(false);
    const dropped = '<details><summary>Hint</summary>Look</details>';
    expect(templateChangedBySave(dropped, sanitizeTemplate(dropped))).toBe(true);
  });

  it('lists the saved labels a change drops, a new name in the same place as a rename', () => {
    const saved = [
      { name: 'car', color: '#000000' },
      { name: 'person', color: '#111111' },
      { name: 'bicycle', color: '#222222' },
    ];
    expect(droppedLabels(saved, [...saved, { name: 'bus', color: '#333333' }])).toEqual([]);
    expect(droppedLabels(saved, [{ name: ' car ', color: '#000000' }, saved[2], saved[1]])).toEqual([]);
    expect(droppedLabels(saved, [{ name: 'automobile', color: '#000000' }, saved[1]])).toEqual([{ name: 'car', renamedTo: 'automobile' }, { name: 'bicycle' }]);
    // "person" took car's place: car was removed, not renamed to a label that already existed.
    expect(droppedLabels(saved, [saved[1], saved[2]])).toEqual([{ name: 'car' }]);
  });
});
