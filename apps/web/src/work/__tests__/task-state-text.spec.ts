import { describe, expect, it } from '@jest/globals';
import { taskStateText } from '../task-state-text';

describe('taskStateText (the worker history\'s last column)', () => {
  it('says complete, waiting, or cancelled by the requester, which never completes', () => {
    expect(taskStateText({ task_complete: true, task_cancelled: false })).toBe('Complete');
    expect(taskStateText({ task_complete: false, task_cancelled: false })).toBe('Waiting for other workers');
    expect(taskStateText({ task_complete: false, task_cancelled: true })).toBe('Cancelled by the requester (still paid)');
  });
});
