import './work.css';
import type { CheckoutResponse, EarningsResponse } from '@crowdbox/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { errorItems } from '../api/client';
import { useSession } from '../auth/session-context';
import { workApi, type WorkProject } from '../api/work.api';
import { ErrorList } from '../shell/error-list';
import { formatCents, formatDuration } from '../shell/format';
import { Loading } from '../shell/loading';
import { staleDrafts } from './draft-store';
import { InProgressCard } from './in-progress-card';
import { endedBecause, type LeaseEnd } from './lease-end';
import { GIVEN_BACK_NOTICE, type LeaseNotice, type WorkListState } from './lease-notices';
import { settleDrafts } from './settle-drafts';
import { useAsync } from './use-async';

interface Overview {
  projects: WorkProject[];
  active: CheckoutResponse[];
  earnings: EarningsResponse;
}

/** Tasks go out oldest first, not best paid first: the card gives the range the next one may pay. */
function rewardRange({ reward, min_reward }: WorkProject): string {
  return min_reward === undefined || min_reward === reward ? formatCents(reward) : `${formatCents(min_reward)}–${formatCents(reward)}`;
}

async function loadOverview(signal: AbortSignal): Promise<Overview> {
  const [projects, active, earnings] = await Promise.all([workApi.projects(signal), workApi.activeCheckouts(signal), workApi.earnings(signal)]);
  return { projects, active, earnings };
}

/** /work: the tasks in progress, the projects with work, and what the worker has earned. */
export function WorkProjectsPage() {
  const { state, reload } = useAsync(loadOverview);
  const userId = useSession().user?.id;
  const activeIds = state.status === 'ok' ? state.data.active.map((c) => c.checkout_id).join(',') : null;
  // Boxes drawn on a lease that the server says ended unsubmitted are gone; say so once. Drafts of
  // leases that were submitted after all (a lost reply, a reload during a submit) go quietly.
  const [lost, setLost] = useState<{ boxes: number; ends: LeaseEnd[] } | null>(null);
  useEffect(() => {
    if (activeIds === null || !userId) return;
    let live = true;
    void settleDrafts(userId, staleDrafts(userId, activeIds ? activeIds.split(',') : [])).then(({ lost: ends, lostBoxes }) => {
      if (live && lostBoxes > 0) setLost({ boxes: lostBoxes, ends });
    });
    return () => {
      live = false;
    };
  }, [activeIds, userId]);
  const why = lost && endedBecause(lost.ends);

  // What became of the last task: "Submit and stop" hands its notice over in the router state (taken once,
  // so a reload does not say it again); Give back sets its own, and the focus goes to it.
  const location = useLocation();
  const navigate = useNavigate();
  // `focus`: shown in place of the card the worker acted on, so the focus goes to it (and it is read so);
  // otherwise it arrives with the page and the live region below says it.
  const [shown, setShown] = useState<{ notice: LeaseNotice; focus: boolean } | null>(() => {
    const handed = (location.state as WorkListState | null)?.notice;
    return handed ? { notice: handed, focus: false } : null;
  });
  const notice = shown?.notice ?? null;
  useEffect(() => {
    if ((location.state as WorkListState | null)?.notice) void navigate('.', { replace: true, state: null });
  }, [location.state, navigate]);
  const noticeRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (shown?.focus) noticeRef.current?.focus();
  }, [shown]);
  // A ✕ goes with its message: the focus moves to the page's heading instead of falling to the page's body.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const dismissed = (hide: () => void) => () => {
    headingRef.current?.focus();
    hide();
  };
  const onGone = (gaveBack: boolean) => {
    if (gaveBack) setShown({ notice: GIVEN_BACK_NOTICE, focus: true });
    reload();
  };

  // One polite region, there while the list loads too, so the notice is a change screen readers read.
  const announcer = (
    <div className="visually-hidden" role="status" data-testid="work-announcer">
      {state.status === 'ok' && shown && !shown.focus ? shown.notice.text : ''}
    </div>
  );
  if (state.status === 'loading') {
    return (
      <>
        {announcer}
        <Loading label="Finding work" />
      </>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="page">
        {announcer}
        <ErrorList errors={errorItems(state.error)} title="Could not load the work list" />
        <button className="button" type="button" onClick={reload}>
          Try again
        </button>
      </div>
    );
  }
  const { projects, active, earnings } = state.data;
  const activeProjects = new Set(active.map((c) => c.project_uuid));

  return (
    <div className="page work-overview">
      {announcer}
      <div className="page-header">
        <div>
          <h1 ref={headingRef} tabIndex={-1}>
            Find work
          </h1>
          <p className="muted">Pick a project, draw boxes around what the task asks for, and submit before the timer runs out.</p>
        </div>
        <section className="earnings card" aria-label="Your earnings" data-testid="earnings">
          <span className="earnings-amount">{formatCents(earnings.earned_cents)}</span>
          <span className="muted">
            earned from {earnings.submission_count} {earnings.submission_count === 1 ? 'task' : 'tasks'}
          </span>
          <Link to="/work/history" data-testid="history-link">
            History
          </Link>
        </section>
      </div>

      {notice && (
        <div ref={noticeRef} tabIndex={-1} className={`alert ${notice.tone} notice`} data-testid="work-notice">
          <span>{notice.text}</span>
          <button type="button" className="button ghost small" onClick={dismissed(() => setShown(null))} aria-label="Dismiss message">
            ✕
          </button>
        </div>
      )}

      {lost !== null && (
        <div className="alert warning notice" role="status" data-testid="lost-drafts">
          <span>
            A task you were working on ended before it was submitted{why ? ` (${why})` : ''}; the {lost.boxes} {lost.boxes === 1 ? 'box' : 'boxes'}{' '}
            drawn on it {lost.boxes === 1 ? 'was' : 'were'} not sent.
          </span>
          <button type="button" className="button ghost small" onClick={dismissed(() => setLost(null))} aria-label="Dismiss message">
            ✕
          </button>
        </div>
      )}

      {active.length > 0 && (
        <section className="work-section" aria-labelledby="in-progress-title">
          <h2 id="in-progress-title">In progress</h2>
          <ul className="project-grid">
            {active.map((c) => (
              <InProgressCard key={c.checkout_id} checkout={c} userId={userId ?? ''} onGone={onGone} />
            ))}
          </ul>
        </section>
      )}

      <section className="work-section" aria-labelledby="projects-title">
        <h2 id="projects-title">Projects with work</h2>
        {projects.length === 0 ? (
          <div className="card empty-state" data-testid="no-projects">
            <p>There is no work for you right now. New tasks appear here as requesters add them.</p>
            <button className="button" type="button" onClick={reload}>
              Check again
            </button>
          </div>
        ) : (
          <ul className="project-grid">
            {projects.map((p) => (
              <li key={p.uuid} className="card project-card" data-testid="work-project">
                <h3>{p.display_name}</h3>
                {p.display_short_description && <p className="project-description">{p.display_short_description}</p>}
                <dl className="project-facts">
                  <div>
                    <dt>Reward</dt>
                    <dd data-testid="project-reward">{rewardRange(p)}</dd>
                  </div>
                  <div>
                    <dt>Time allowed</dt>
                    <dd>{formatDuration(p.allowed_completion_time_seconds)}</dd>
                  </div>
                  <div>
                    <dt>Tasks left</dt>
                    <dd data-testid="tasks-left">{p.available_task_count}</dd>
                  </div>
                </dl>
                <div className="project-card-footer">
                  <Link
                    className="button primary"
                    to={`/work/${p.uuid}`}
                    aria-label={`${activeProjects.has(p.uuid) ? 'Resume' : 'Start'} ${p.display_name}`}
                  >
                    {activeProjects.has(p.uuid) ? 'Resume' : 'Start'}
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      {earnings.projects.length > 0 && (
        <section className="work-section" aria-labelledby="earnings-title">
          <h2 id="earnings-title">Earnings by project</h2>
          <div className="table-scroll card flush">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Project</th>
                  <th scope="col" className="num">
                    Tasks submitted
                  </th>
                  <th scope="col" className="num">
                    Earned
                  </th>
                </tr>
              </thead>
              <tbody>
                {earnings.projects.map((p) => (
                  <tr key={p.project_uuid}>
                    <td>{p.display_name}</td>
                    <td className="num">{p.submission_count}</td>
                    <td className="num">{formatCents(p.earned_cents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      {/* docs/decisions.md, "Task images load from the requester's address". */}
      <p className="muted" data-testid="image-privacy">
        Task images load straight from each requester&rsquo;s server, which sees your IP address as any website you visit does.
        Requesters never see your name or email.
      </p>
    </div>
  );
}
