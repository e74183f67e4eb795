import { Annotator, type OverlayBoxSet } from '@crowdbox/annotator';
import { boxInFrame, sameSize, type Box, type ImageSize } from '@crowdbox/boxes';
import { useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { TaskPrompt } from '../../work/task-prompt';
import { DateTime } from '../components/date-time';
import { LoadView } from '../components/load-view';
import { consoleApi, type ConsoleTaskDetail } from '../lib/console-api';
import { shortId } from '../lib/format';
import { formatCents } from '../../shell/format';
import { useLoad } from '../lib/use-load';
import { ProjectHeader } from '../projects/project-header';
import { BlockWorker } from './block-worker';
import { CancelTask } from './cancel-task';
import { ProblemReports } from './problem-reports';
import { taskListReturnPath } from './task-list-return';
import { peerAgreementText } from './peer-agreement-text';
import { TaskStateBadge } from './task-state-badge';

/** Stroke colours for workers' boxes, apart from one another and from the solid consensus boxes. */
const WORKER_COLORS = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#9a6324', '#469990', '#808000'];

/** /console/projects/:uuid/tasks/:taskUuid: the image with the consensus boxes, each worker's boxes on demand. */
export function TaskPage() {
  const { projectUuid = '', taskUuid = '' } = useParams();
  const project = useLoad((signal) => consoleApi.project(projectUuid, signal), [projectUuid]);
  const task = useLoad((signal) => consoleApi.task(projectUuid, taskUuid, signal), [projectUuid, taskUuid]);
  const title = project.state.status === 'ok' ? project.state.data.display_name : 'Project';
  // The list this task was opened from, filters and page kept; the whole list when opened otherwise.
  const tasksPath = taskListReturnPath(projectUuid, useLocation().state);
  return (
    <div className="page">
      <ProjectHeader uuid={projectUuid} title={title} tasksPath={tasksPath} crumb={`Task ${shortId(taskUuid)}`} />
      <LoadView state={task.state} label="Loading the task" onRetry={task.reload}>
        {(detail) => <TaskView task={detail} projectUuid={projectUuid} tasksPath={tasksPath} onChanged={task.reload} />}
      </LoadView>
    </div>
  );
}

/**
 * The task's boxes are in the pixels of its frame, the image size its first worker's browser reported.
 * This browser may load the image at another size (an image service that resizes per client): the boxes
 * are drawn scaled to the size it loaded, which the table below does not change.
 */
function useBoxesOnImage(frame: ImageSize | null, image: ImageSize | null): (boxes: Box[]) => Box[] {
  return useMemo(() => {
    if (!frame || !image || sameSize(frame, image)) return (boxes) => boxes;
    return (boxes) => boxes.map((box) => boxInFrame(box, frame, image));
  }, [frame, image]);
}

function TaskView({ task, projectUuid, tasksPath, onChanged }: { task: ConsoleTaskDetail; projectUuid: string; tasksPath: string; onChanged: () => void }) {
  const submissions = useMemo(() => task.results.submissions ?? [], [task]);
  const agreementOf = useMemo(() => new Map(task.peer_agreement.map((a) => [a.worker, a])), [task]);
  const agreementNote = (worker: string) => {
    const agreement = agreementOf.get(worker);
    return agreement ? <> · {peerAgreementText(agreement)}</> : null;
  };
  const [showConsensus, setShowConsensus] = useState(true);
  const [visible, setVisible] = useState<Record<string, boolean>>({});
  const [image, setImage] = useState<ImageSize | null>(null);
  const onImage = useBoxesOnImage(task.frame, image);
  const overlays: OverlayBoxSet[] = useMemo(
    () =>
      submissions.map((s, i) => ({
        id: s.submission_id,
        name: s.worker,
        boxes: onImage(s.annotations),
        color: WORKER_COLORS[i % WORKER_COLORS.length],
        visible: visible[s.submission_id] ?? false,
      })),
    [submissions, visible, onImage],
  );
  const consensus = task.results.annotations;
  const consensusOnImage = useMemo(() => onImage(consensus), [consensus, onImage]);

  return (
    <div className="cbc-task">
      <section className="cbc-task__image" aria-labelledby="image-title">
        {/* A heading, unseen, so the annotator's own <h3>s (label legend, box list) come under an <h2>
            rather than straight under the page's <h1> (axe heading-order, a11y/pages.spec). */}
        <h2 id="image-title" className="visually-hidden">
          Image with boxes
        </h2>
        {task.external_image_url ? (
          <Annotator
            imageUrl={task.external_image_url}
            labels={task.labels}
            boxes={showConsensus ? consensusOnImage : []}
            overlays={overlays}
            onImageSize={setImage}
            readOnly
            height={560}
          />
        ) : (
          <div className="card cbc-empty">This task has no image.</div>
        )}
      </section>

      <div className="cbc-task__side">
        <fieldset className="card cbc-layers">
          <legend>Layers</legend>
          <label className="cbc-check">
            <input type="checkbox" checked={showConsensus} onChange={(e) => setShowConsensus(e.target.checked)} data-testid="toggle-consensus" />
            <span className="cbc-swatch cbc-swatch--solid" aria-hidden="true" />
            Consensus ({consensus.length} {consensus.length === 1 ? 'box' : 'boxes'})
          </label>
          {submissions.length === 0 && <p className="field-hint">No submissions yet.</p>}
          {submissions.map((s, i) => (
            <label key={s.submission_id} className="cbc-check" data-testid="worker-toggle">
              <input
                type="checkbox"
                checked={visible[s.submission_id] ?? false}
                onChange={(e) => setVisible((v) => ({ ...v, [s.submission_id]: e.target.checked }))}
              />
              <span className="cbc-swatch cbc-swatch--dashed" style={{ borderColor: WORKER_COLORS[i % WORKER_COLORS.length] }} aria-hidden="true" />
              <span className="cbc-check__text">
                <span className="cbc-mono">{s.worker}</span>
                <span className="muted cbc-small">
                  {s.annotations.length} {s.annotations.length === 1 ? 'box' : 'boxes'}, <DateTime iso={s.submitted_at} />
                  {agreementNote(s.worker)}
                </span>
              </span>
            </label>
          ))}
        </fieldset>

        <section className="card">
          <h2>Task</h2>
          <dl className="cbc-facts">
            <dt>UUID</dt>
            <dd>
              <code data-testid="task-uuid">{task.task_uuid}</code>
            </dd>
            <dt>State</dt>
            <dd>
              <TaskStateBadge state={task.state} />
            </dd>
            <dt>Submissions</dt>
            <dd>
              {task.submission_count} of {task.required_submissions}
              {task.active_checkouts > 0 && <span className="muted"> · {task.active_checkouts} working now</span>}
            </dd>
            {task.frame && (
              <>
                <dt>Image size</dt>
                <dd data-testid="task-frame">
                  {task.frame.width} × {task.frame.height}
                  {image && !sameSize(task.frame, image) && (
                    <span className="muted">
                      {' '}
                      as the workers saw it (boxes in its pixels); {image.width} × {image.height} here
                    </span>
                  )}
                </dd>
              </>
            )}
            <dt>Reward</dt>
            <dd>{formatCents(task.reward)} per submission</dd>
            <dt>Created</dt>
            <dd><DateTime iso={task.created_at} /></dd>
            {task.completed_at && (
              <>
                <dt>Completed</dt>
                <dd><DateTime iso={task.completed_at} /></dd>
              </>
            )}
            {task.cancelled_at && (
              <>
                <dt>Cancelled</dt>
                <dd><DateTime iso={task.cancelled_at} /></dd>
              </>
            )}
          </dl>
        </section>
      </div>

      <ProblemReports problems={task.problems} />

      <BlockWorker projectUuid={projectUuid} workers={submissions.map((s) => s.worker)} blockedAlready={task.blocked_workers} onDone={onChanged} />

      <CancelTask projectUuid={projectUuid} task={task} onDone={onChanged} />

      <section className="card cbc-task__consensus" aria-labelledby="consensus-title">
        <h2 id="consensus-title">Consensus boxes</h2>
        {task.state === 'cancelled' ? (
          <p className="muted" data-testid="consensus-note">
            This task was cancelled with {task.submission_count} of {task.required_submissions} submissions, so it has no consensus and never will.
            {task.submission_count > 0 && ' Each worker’s boxes are under Layers: switch a worker on to draw them.'}
          </p>
        ) : !task.results.completed ? (
          <p className="muted" data-testid="consensus-note">
            The consensus is drawn when the task is complete ({task.submission_count} of {task.required_submissions} submissions so far).
          </p>
        ) : consensus.length === 0 ? (
          <p className="muted">The workers agreed on no box.</p>
        ) : (
          <div className="table-scroll">
            <table className="table" data-testid="consensus-table">
              <thead>
                <tr>
                  <th scope="col">Label</th>
                  <th scope="col" className="num">
                    Center x, y
                  </th>
                  <th scope="col" className="num">
                    Width × height
                  </th>
                  <th scope="col" className="num">
                    Drawn by
                  </th>
                  <th scope="col" className="num">
                    Agreement (IoU)
                  </th>
                </tr>
              </thead>
              <tbody>
                {consensus.map((box, i) => (
                  <tr key={i} data-testid="consensus-row">
                    <td>
                      <span className="cbc-swatch" style={{ background: task.labels.find((l) => l.name === box.label)?.color }} aria-hidden="true" /> {box.label}
                    </td>
                    <td className="num">
                      {box.center_x}, {box.center_y}
                    </td>
                    <td className="num">
                      {box.width} × {box.height}
                    </td>
                    <td className="num">
                      {box.support} of {submissions.length}
                    </td>
                    <td className="num">{box.agreement.toFixed(3)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="cbc-small">
          <a href={consoleApi.resultsUrl(projectUuid, 'json')} download>
            All results as JSON
          </a>{' '}
          ·{' '}
          <a href={consoleApi.resultsUrl(projectUuid, 'coco')} download>
            COCO
          </a>{' '}
          ·{' '}
          <a href={consoleApi.resultsUrl(projectUuid, 'csv')} download>
            CSV
          </a>{' '}
          · <Link to={tasksPath}>Back to the tasks</Link>
        </p>
      </section>

      <section className="card cbc-task__prompt" aria-labelledby="prompt-title">
        <h2 id="prompt-title">What workers saw</h2>
        <TaskPrompt html={task.prompt} />
      </section>
    </div>
  );
}
