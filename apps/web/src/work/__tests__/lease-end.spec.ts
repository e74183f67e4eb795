import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../api/client';
import { CHECKOUT_EXPIRED, CHECKOUT_RELEASED, TASK_CANCELLED, TASK_COMPLETED } from '../../api/work.api';
import { endedBecause, leaseOutcomeOf } from '../lease-end';

const refused = (detail: string, status = 422) => new ApiError(status, [{ field: 'root', detail }]);

describe('lease end', () => {
  it('reads why a submit was refused from the API’s exact details, a completed task included', () => {
    expect(leaseOutcomeOf(refused(CHECKOUT_EXPIRED))).toBe('expired');
    expect(leaseOutcomeOf(refused(TASK_CANCELLED))).toBe('cancelled');
    expect(leaseOutcomeOf(refused(CHECKOUT_RELEASED))).toBe('released');
    // Without it, the page kept a lease it could never submit and offered "try again" until time ran out.
    expect(leaseOutcomeOf(refused(TASK_COMPLETED))).toBe('completed');
    expect(leaseOutcomeOf(refused(TASK_COMPLETED, 409))).toBeNull();
    expect(leaseOutcomeOf(refused('annotations.0.label: "x" is not a label'))).toBeNull();
  });

  it('says one reason when every lost lease ended for it, and none when they differ', () => {
    expect(endedBecause(['completed', 'completed'])).toBe('other workers completed it');
    expect(endedBecause(['completed', 'expired'])).toBeNull();
  });
});
