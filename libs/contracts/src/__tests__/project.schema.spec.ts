import { updateProjectBodySchema } from '../console/project.schema';

const issues = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

describe('a console project variable named __proto__', () => {
  it('is refused under its name instead of being dropped from variables', () => {
    const result = updateProjectBodySchema.safeParse(JSON.parse('{"variables":{"object":"car","__proto__":"x"}}'));
    expect(issues(result)).toEqual([['variables.__proto__', expect.stringContaining('no variable may be named __proto__')]]);
    expect(updateProjectBodySchema.parse({ variables: { object: 'car' } }).variables).toEqual({ object: 'car' });
  });

  it('is refused as the image variable, which no placeholder could ever fill', () => {
    const result = updateProjectBodySchema.safeParse({ image_variable: '__proto__' });
    expect(issues(result)).toEqual([['image_variable', expect.stringContaining('no variable may be named __proto__')]]);
  });
});
