import { LIMITS, maxBoxesPerSubmission } from '../limits';
import { checkoutBodySchema, submitBodySchema } from '../work/work.schema';

describe('boxes a submission may hold', () => {
  it('is 500 up to 8 submissions a task, then the task’s share of 4,000', () => {
    expect([1, 3, 8, 9, 10, 11, 20, 33, 100].map(maxBoxesPerSubmission)).toEqual([500, 500, 500, 444, 400, 363, 200, 121, 40]);
  });

  it('keeps every task within LIMITS.boxesPerTask, whatever its required submissions', () => {
    for (let required = LIMITS.requiredSubmissions.min; required <= LIMITS.requiredSubmissions.max; required++) {
      const max = maxBoxesPerSubmission(required);
      expect(max * required).toBeLessThanOrEqual(LIMITS.boxesPerTask);
      expect(max).toBeLessThanOrEqual(LIMITS.boxesPerSubmission);
      // The largest such number: one more box would break one of the two limits.
      expect((max + 1) * required > LIMITS.boxesPerTask || max + 1 > LIMITS.boxesPerSubmission).toBe(true);
    }
  });

  it('is checked against the task at submit; the body alone allows LIMITS.boxesPerSubmission', () => {
    const body = (n: number) => ({ annotations: Array.from({ length: n }, () => ({ label: 'car', center_x: 5, center_y: 5, width: 4, height: 4 })), image_width: 10, image_height: 10 });
    expect(submitBodySchema.safeParse(body(500)).success).toBe(true);
    expect(submitBodySchema.safeParse(body(501)).error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['annotations', 'must hold at most 500 boxes']]);
  });
});

describe('a submitted box', () => {
  it('that is not an object is named as the box it should be', () => {
    const box = { label: 'car', center_x: 5, center_y: 5, width: 4, height: 4 };
    const issues = submitBodySchema.safeParse({ annotations: [box, null, 'car'], image_width: 10, image_height: 10 }).error?.issues;
    expect(issues?.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['annotations.1', 'must be a box {label, center_x, center_y, width, height}'],
      ['annotations.2', 'must be a box {label, center_x, center_y, width, height}'],
    ]);
  });
});

describe('the checkout body', () => {
  it('reads project_uuid in lower case, as PostgreSQL writes it and the project cache is keyed', () => {
    const upper = '0F8FAD5B-D9CB-469F-A165-70867728950E';
    expect(checkoutBodySchema.parse({ project_uuid: upper })).toEqual({ project_uuid: upper.toLowerCase() });
  });
});
