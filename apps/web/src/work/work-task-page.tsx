import './work.css';
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useSession } from '../auth/session-context';
import { ErrorList } from '../shell/error-list';
import { Loading } from '../shell/loading';
import type { LeaseOutcome } from './lease-end';
import { TaskWorkspace } from './task-workspace';
import type { LeaseNotice, WorkListState } from './lease-notices';
import { useTaskLease, type TaskLease } from './use-task-lease';

/**
 * What the page says when a lease ended before the worker could submit it, or when its countdown ended on
 * a lease submitted elsewhere (a tab left open behind the one that submitted it: it takes no new task unseen).
 */
const ENDED: Record<LeaseOutcome, { title: string; text: string }> = {
  expired: {
    title: 'Time is up',
    text: 'The time allowed for this task ran out before it was submitted, so the task went back to other workers and can no longer be submitted.',
  },
  cancelled: { title: 'Task cancelled', text: 'The requester cancelled this task, so it can no longer be submitted.' },
  released: {
    title: 'Task given back',
    text: 'This task was given back (Skip, perhaps in another tab or window), so it went to other workers and can no longer be submitted here.',
  },
  completed: { title: 'Task already completed', text: 'Other workers completed this task, so it can no longer be submitted.' },
  submitted: {
    title: 'This task was already submitted',
    text: 'It was submitted in another tab or window (or by an earlier submit whose answer was lost), so there is nothing more to do on it here.',
  },
};

/** Time is up after a submit that got no answer, and the server could not be asked whether it arrived. */
const UNSURE_TEXT =
  'The time allowed for this task ran out. Your last submit got no answer and the server could not be reached to ask whether it arrived; your boxes are kept on this device, and the next task here will say what became of them.';

// Seen, not announced: ProjectTasks' live region, which outlives the task, says it (a region inserted
// already filled is often not read). The ✕ goes with the notice: the focus moves to the screen's heading
// instead of falling to the page's body.
function Notice({
  notice,
  onDismiss,
  heading,
}: {
  notice: LeaseNotice | null;
  onDismiss: () => void;
  heading: RefObject<HTMLHeadingElement | null>;
}) {
  if (!notice) return null;
  const dismiss = () => {
    heading.current?.focus();
    onDismiss();
  };
  return (
    <div className={`alert ${notice.tone} notice`} data-testid="lease-notice">
      <span>{notice.text}</span>
      <button type="button" className="button ghost small" onClick={dismiss} aria-label="Dismiss message">
        ✕
      </button>
    </div>
  );
}

/** /work/:projectUuid: one task of the project at a time, the next one straight after each submit. */
export function WorkTaskPage() {
  const { projectUuid = '' } = useParams();
  const { user } = useSession();
  // <RequireSession> shows this page only to a signed-in user; the drafts are that user's.
  return user ? <ProjectTasks key={user.id} projectUuid={projectUuid} userId={user.id} /> : null;
}

function ProjectTasks({ projectUuid, userId }: { projectUuid: string; userId: string }) {
  const navigate = useNavigate();
  // "Submit and stop": back to the work list, which says what became of the task (work-projects-page.tsx).
  const lease = useTaskLease(projectUuid, userId, (notice) => void navigate('/work', { state: { notice } satisfies WorkListState }));
  const { state } = lease;

  // Each screen after the first (the next task after a submit or Skip, no task left, an error) takes the
  // focus to its heading: the button pressed is gone, and the focus would fall to the page body. An ended
  // lease's card focuses its "Next task" itself.
  const heading = useRef<HTMLHeadingElement>(null);
  const screen = state.kind === 'task' ? state.checkout.checkout_id : state.kind;
  const shownOne = useRef(false);
  useEffect(() => {
    if (screen === 'loading') return;
    if (shownOne.current && screen !== 'ended') heading.current?.focus();
    shownOne.current = true;
  }, [screen]);

  // One polite region for the page's notices, there from the start and emptied while the next task loads,
  // so each notice (even the same words again) is a change that screen readers read.
  const announcer = (
    <div className="visually-hidden" role="status" data-testid="lease-announcer">
      {state.kind === 'loading' ? '' : (lease.notice?.text ?? '')}
    </div>
  );
  return (
    <>
      {announcer}
      <ProjectTasksScreen lease={lease} heading={heading} />
    </>
  );
}

function ProjectTasksScreen({ lease, heading }: { lease: TaskLease; heading: RefObject<HTMLHeadingElement | null> }): ReactNode {
  const { state } = lease;

  if (state.kind === 'loading') return <Loading label="Getting a task" />;

  if (state.kind === 'task') {
    return (
      <TaskWorkspace
        key={state.checkout.checkout_id}
        headingRef={heading}
        checkout={state.checkout}
        initialBoxes={state.initialBoxes}
        initialImage={state.initialImage}
        resumed={state.resumed}
        notice={<Notice notice={lease.notice} onDismiss={lease.dismissNotice} heading={heading} />}
        busy={lease.busy}
        failure={lease.failure}
        onSubmit={lease.submit}
        onSkip={lease.skip}
        onExpired={lease.expire}
        onDraft={lease.keepDraft}
        watchOtherTabs={lease.watchOtherTabs}
      />
    );
  }

  return (
    <div className="page narrow">
      <Notice notice={lease.notice} onDismiss={lease.dismissNotice} heading={heading} />
      {state.kind === 'ended' && (
        <div className="card task-ended" role="alert" data-testid={`task-${state.reason}`}>
          <h1 ref={heading} tabIndex={-1}>
            {ENDED[state.reason].title}
          </h1>
          <p>
            {state.unsure ? UNSURE_TEXT : ENDED[state.reason].text}
            {!state.unsure && state.lostBoxes > 0 && (
              <>
                {' '}
                The {state.lostBoxes} {state.lostBoxes === 1 ? 'box' : 'boxes'} you drew on it {state.lostBoxes === 1 ? 'was' : 'were'} not
                sent.
              </>
            )}
          </p>
          <div className="actions">
            <button type="button" className="button primary" onClick={() => void lease.next()} autoFocus>
              Next task
            </button>
            <Link className="button" to="/work">
              Back to projects
            </Link>
          </div>
        </div>
      )}
      {state.kind === 'no-task' && (
        <div className="card task-ended" data-testid="no-task">
          <h1 ref={heading} tabIndex={-1}>
            No more tasks here
          </h1>
          <p>There is no task in this project for you right now. Other projects may have work.</p>
          <div className="actions">
            <Link className="button primary" to="/work">
              Find other work
            </Link>
            <button type="button" className="button" onClick={() => void lease.next()}>
              Check again
            </button>
          </div>
        </div>
      )}
      {state.kind === 'error' && (
        <div className="card task-ended">
          <h1 ref={heading} tabIndex={-1}>
            Could not get a task
          </h1>
          <ErrorList errors={state.errors} />
          <div className="actions">
            <button type="button" className="button primary" onClick={() => void lease.retry()}>
              Try again
            </button>
            <Link className="button" to="/work">
              Back to projects
            </Link>
          </div>
        </div>
      )}
    </div>
  );
}
