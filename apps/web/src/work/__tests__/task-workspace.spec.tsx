import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { screen } from '@testing-library/react';
import { renderWorkspace } from './render-workspace';

describe('the task panel on saving drafts', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('promises to keep the boxes on this device when it can', () => {
    renderWorkspace();
    expect(screen.getByText(/Your boxes are kept on this device until you submit\./)).toBeTruthy();
  });

  it('says the boxes are not being saved when this browser keeps nothing, instead of promising it', () => {
    jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota exceeded', 'QuotaExceededError');
    });
    renderWorkspace();
    expect(screen.queryByText(/kept on this device/)).toBeNull();
    expect(screen.getByText(/Your boxes are not being saved on this device/)).toBeTruthy();
  });
});
