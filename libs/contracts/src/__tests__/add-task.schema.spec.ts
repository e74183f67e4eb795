import { addTaskBodySchema } from '../requester/add-task.schema';

describe('add_task body schema', () => {
  it('turns numbers and booleans into strings', () => {
    const parsed = addTaskBodySchema.parse({ task: { substitutions: { n: 4.5, b: false, s: 'x' } } });
    expect(parsed.task.substitutions).toEqual({ n: '4.5', b: 'false', s: 'x' });
  });

  it('names the missing task', () => {
    const result = addTaskBodySchema.safeParse({});
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['task', 'task is a required field']]);
  });

  it('treats null optional fields as absent', () => {
    const parsed = addTaskBodySchema.parse({ task: { callback_url: null, reward: null, project_uuid: 'p' } });
    expect(parsed.task.callback_url).toBeNull();
    expect(parsed.task.reward).toBeNull();
  });

  it('refuses NaN-like and infinite numbers as values', () => {
    const result = addTaskBodySchema.safeParse({ task: { substitutions: { x: { a: 1 } } } });
    expect(result.error?.issues[0].path).toEqual(['task', 'substitutions', 'x']);
  });
});
