import { randomUUID } from 'node:crypto';
import { aCompletedTask, aRequester, signUp } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { findWorkerByPseudonym } from '../find-worker';
import { workerPseudonym } from '../worker-pseudonym';

/** findWorkerByPseudonym: the worker a requester names by the pseudonym of a project's results. */
describe('finding a worker by pseudonym', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds a submitter of the project by the name its results show, and reads the project once for them', async () => {
    const r = await aRequester(t);
    const w = await signUp(t);
    await aCompletedTask(t, r, w);
    const query = jest.spyOn(t.db, 'query');
    const name = workerPseudonym(r.projectUuid, w.userId);
    expect(await findWorkerByPseudonym(t.db, r.projectUuid, name)).toBe(w.userId);
    expect(await findWorkerByPseudonym(t.db, r.projectUuid, name)).toBe(w.userId);
    expect(query).toHaveBeenCalledTimes(1);
    query.mockRestore();
  });

  it('finds nobody for a worker who has not submitted there, until they have', async () => {
    const r = await aRequester(t);
    const w = await signUp(t);
    const name = workerPseudonym(r.projectUuid, w.userId);
    expect(await findWorkerByPseudonym(t.db, r.projectUuid, name)).toBeUndefined();
    await aCompletedTask(t, r, w);
    expect(await findWorkerByPseudonym(t.db, r.projectUuid, name)).toBe(w.userId);
    // Their name in another project, and a malformed name, name nobody here.
    expect(await findWorkerByPseudonym(t.db, r.projectUuid, workerPseudonym(randomUUID(), w.userId))).toBeUndefined();
    expect(await findWorkerByPseudonym(t.db, r.projectUuid, "worker_'; --")).toBeUndefined();
  });
});
