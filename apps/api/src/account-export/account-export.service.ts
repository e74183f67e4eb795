import { ACCOUNT_EXPORT_FORMAT, type AccountExport, type AccountExportSubmission, type ConsoleProjectResponse } from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '../auth/api-keys.service';
import { tooManyRequests } from '../auth/redis-limiter';
import { SessionsService, toUserResponse } from '../auth/sessions.service';
import type { SessionPrincipal } from '../common/http/principal';
import { pageParams } from '../common/page-cursor';
import { ProjectsService } from '../projects/projects.service';
import type { StoredBox } from '../submissions/submission.entity';
import { WebhooksConsoleService } from '../webhooks/webhooks-console.service';
import { submissionHead, workerSubmissionsSql, type WorkerSubmissionHead } from '../work/work-history.service';
import { WorkerBlocksService } from '../worker-blocks/worker-blocks.service';

/**
 * Data files one process makes at once (one per user): each reads page after page on a pooled
 * connection while it streams, and a burst of them must not take the pool from everyone else.
 */
export const MAX_EXPORTS_PER_PROCESS = 4;
/** What a refused export is told to wait: a file of a few thousand submissions takes a second or two. */
const EXPORT_RETRY_MS = 10_000;

/** Submissions read per statement: a page's boxes (up to 4,000 per task) are written out before the next is held. */
export const EXPORT_SUBMISSIONS_PAGE = 250;

/**
 * Projects read per page, on the console's keyset (ProjectsService.keysetPage): a page's figures are one
 * statement over that page's tasks only, and its templates (up to 100 KB each) are written out before
 * the next page is held. All the account's projects at once was one statement over every task of every
 * project, which a large requester's file never finished within the statement timeout.
 */
export const EXPORT_PROJECTS_PAGE = 50;

/** The file's properties before `projects`, and those between it and `submissions`, in the file's order. */
type HeadBefore = Pick<AccountExport, 'format' | 'exported_at' | 'user' | 'account' | 'sessions' | 'api_keys'>;
type HeadAfter = Pick<AccountExport, 'webhook_endpoints' | 'blocked_workers'>;

interface SubmissionRow extends WorkerSubmissionHead {
  image_width: number;
  image_height: number;
  boxes: StoredBox[];
  reward: number;
}

/**
 * The signed-in user's data as one JSON file (docs/decisions.md, "Downloading your data"). The small lists
 * are read first, through the services that answer the console's pages, so the file says what those pages
 * say; the projects follow page by page as the console's project list reads them, and the submissions
 * page by page on the worker history's keyset.
 */
@Injectable()
export class AccountExportService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionsService,
    private readonly apiKeys: ApiKeysService,
    private readonly projects: ProjectsService,
    private readonly webhooks: WebhooksConsoleService,
    private readonly blocks: WorkerBlocksService,
  ) {}

  /** Users whose data file this process is making. */
  private readonly exporting = new Set<string>();

  /**
   * Takes one of this process's MAX_EXPORTS_PER_PROCESS for the user, or answers 429 (one of theirs is
   * being made, or too many are); the returned release, safe to call more than once, gives it back.
   */
  begin(userId: string): () => void {
    if (this.exporting.has(userId)) throw tooManyRequests('your data file is being made already; wait for it to finish', EXPORT_RETRY_MS);
    if (this.exporting.size >= MAX_EXPORTS_PER_PROCESS) throw tooManyRequests('other data files are being made', EXPORT_RETRY_MS);
    this.exporting.add(userId);
    let held = true;
    return () => {
      if (held) this.exporting.delete(userId);
      held = false;
    };
  }

  /**
   * The file's text in chunks: the small lists, each project and each submission as it is read; `done`
   * runs at its end. The same bytes as one JSON.stringify of the whole file, in the contract's order.
   */
  async export(session: SessionPrincipal, done: () => void): Promise<AsyncIterable<string>> {
    const { before, after } = await this.head(session);
    const projects = this.projectPages(session.accountId);
    const submissions = this.submissions(session.userId);
    return (async function* () {
      try {
        // The head's JSON without its closing brace, the streamed projects, the rest of the head without
        // its braces, then the streamed submissions as the last property.
        yield `${JSON.stringify(before).slice(0, -1)},"projects":[`;
        yield* joined(projects);
        yield `],${JSON.stringify(after).slice(1, -1)},"submissions":[`;
        yield* joined(submissions);
        yield ']}';
      } finally {
        done();
      }
    })();
  }

  /** The small lists, read one after another, on one pooled connection at a time. */
  private async head(session: SessionPrincipal): Promise<{ before: HeadBefore; after: HeadAfter }> {
    const user = await this.sessions.user(session.userId);
    const [account]: Array<{ id: string; name: string; created_at: Date }> = await this.db.query(`SELECT id, name, created_at FROM accounts WHERE id = $1`, [
      session.accountId,
    ]);
    const sessions = await this.sessions.list(session);
    const apiKeys = await this.apiKeys.list(session.accountId);
    const webhooks = await this.webhooks.settings(session.accountId);
    const blockedWorkers = await this.blocks.list(session.accountId);
    return {
      before: {
        format: ACCOUNT_EXPORT_FORMAT,
        exported_at: new Date().toISOString(),
        user: toUserResponse(user),
        account: { id: account.id, name: account.name, created_at: account.created_at.toISOString() },
        sessions,
        api_keys: apiKeys,
      },
      after: {
        // The signing secret is a credential, not data about the user; the console shows it.
        webhook_endpoints: webhooks.endpoints,
        blocked_workers: blockedWorkers,
      },
    };
  }

  /** The account's projects, newest first, EXPORT_PROJECTS_PAGE (and their figures) per page of the console's list. */
  private async *projectPages(accountId: string): AsyncIterable<ConsoleProjectResponse> {
    let before: string | undefined;
    do {
      const page = await this.projects.keysetPage(accountId, { limit: EXPORT_PROJECTS_PAGE, before });
      yield* page.data;
      before = page.next_cursor ?? undefined;
    } while (before);
  }

  /** The user's submissions as a worker, newest first, EXPORT_SUBMISSIONS_PAGE per statement. */
  private async *submissions(workerId: string): AsyncIterable<AccountExportSubmission> {
    let before: string | undefined;
    do {
      const rows: SubmissionRow[] = await this.db.query(
        workerSubmissionsSql('s.image_width, s.image_height, s.boxes, s.reward', before !== undefined, EXPORT_SUBMISSIONS_PAGE),
        pageParams(workerId, before),
      );
      for (const row of rows) yield toSubmission(row);
      before = rows.length === EXPORT_SUBMISSIONS_PAGE ? rows[rows.length - 1].cursor : undefined;
    } while (before);
  }
}

/** The items' JSON, comma-separated, each written as it is read. */
async function* joined(items: AsyncIterable<unknown>): AsyncIterable<string> {
  let first = true;
  for await (const item of items) {
    yield `${first ? '' : ','}${JSON.stringify(item)}`;
    first = false;
  }
}

function toSubmission(row: SubmissionRow): AccountExportSubmission {
  return {
    ...submissionHead(row),
    image_width: Number(row.image_width),
    image_height: Number(row.image_height),
    boxes: row.boxes.map(({ label, center_x, center_y, width, height }) => ({ label, center_x, center_y, width, height })),
    reward: Number(row.reward),
  };
}
