import {
  type Annotation,
  type ConsensusAnnotation,
  type ProjectAnnotationsEntry,
  type ProjectResponse,
  type TaskAnnotationsRecord,
  type TaskResponse,
  type WorkerSubmission,
} from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { uuidFromSeed } from '../common/crypto.util';
import type { ApiKeyPrincipal } from '../common/http/principal';
import type { NewTask } from '../tasks/task-builder';
import { newTaskResponse } from '../tasks/task.mapper';

/** Fixed so that the same request always gets the same answer. */
const FAKE_TIME = '2026-01-01T12:00:00.000Z';
const FAKE_LABELS = ['object', 'person', 'vehicle'];

/**
 * Test keys (API.md "Test keys"): validly shaped, deterministic fake data; nothing is read from or
 * written to the account's tasks. Every value is derived from the key's account and the request.
 */
@Injectable()
export class TestModeService {
  /** add_task / add_tasks with a test key: the task as it would have been created, with a stable id. */
  createdTask(key: ApiKeyPrincipal, task: NewTask, seed: string): TaskResponse {
    return newTaskResponse({ ...task, id: uuidFromSeed(`${key.accountId}:task:${seed}`) });
  }

  /** GET /api/v1/tasks/:uuid with a test key: a complete task with three submissions. */
  task(key: ApiKeyPrincipal, uuid: string): TaskResponse {
    return {
      prompt: '<p>Draw a box around every object in the image.</p>',
      task_uuid: uuid,
      reward: 25,
      callback_url: null,
      required_submissions: 3,
      submission_count: 3,
      checked_out_at: null,
      allowed_completion_time_seconds: 3600,
      external_image_url: `https://example.com/test-images/${uuid}.jpg`,
      submissions: [0, 1, 2].map((i) => uuidFromSeed(`${key.accountId}:submission:${uuid}:${i}`)),
    };
  }

  taskAnnotations(key: ApiKeyPrincipal, uuid: string, withSubmissions: boolean): TaskAnnotationsRecord {
    const record: TaskAnnotationsRecord = {
      task_uuid: uuid,
      completed: true,
      completed_at: FAKE_TIME,
      annotations: this.consensus(uuid),
    };
    if (withSubmissions) record.submissions = this.submissions(key, uuid);
    return record;
  }

  project(_key: ApiKeyPrincipal, uuid: string): ProjectResponse {
    return {
      allowed_completion_time_seconds: 3600,
      available_task_count: 7,
      average_outstanding_task_reward_cents: 25,
      default_required_submissions: 3,
      default_reward: 25,
      display_name: 'Test project',
      display_short_description: 'Fake data for integration tests; nothing here is real.',
      has_published_tasks: true,
      lifetime_payments_to_workers_cents: 225,
      name: 'Test project (using a test key)',
      uuid,
    };
  }

  projectAnnotations(key: ApiKeyPrincipal, projectUuid: string, withSubmissions: boolean): ProjectAnnotationsEntry[] {
    return [0, 1, 2].map((i) => {
      const taskUuid = uuidFromSeed(`${key.accountId}:project-task:${projectUuid}:${i}`);
      const entry: ProjectAnnotationsEntry = {
        task_uuid: taskUuid,
        external_image_url: `https://example.com/test-images/${taskUuid}.jpg`,
        completed_at: FAKE_TIME,
        annotations: this.consensus(taskUuid),
      };
      if (withSubmissions) entry.submissions = this.submissions(key, taskUuid);
      return entry;
    });
  }

  /** Two boxes whose position depends on the task id, so different tasks look different. */
  private consensus(seed: string): ConsensusAnnotation[] {
    return this.boxes(seed).map((box) => ({ ...box, support: 3, agreement: 0.9 }));
  }

  private boxes(seed: string): Annotation[] {
    const bytes = createHash('sha256').update(seed).digest();
    return [0, 1].map((i) => ({
      label: FAKE_LABELS[bytes[i] % FAKE_LABELS.length],
      center_x: 100 + bytes[2 + i] * 2,
      center_y: 80 + bytes[4 + i],
      width: 40 + (bytes[6 + i] % 120),
      height: 30 + (bytes[8 + i] % 90),
    }));
  }

  private submissions(key: ApiKeyPrincipal, taskUuid: string): WorkerSubmission[] {
    return [0, 1, 2].map((i) => ({
      submission_id: uuidFromSeed(`${key.accountId}:submission:${taskUuid}:${i}`),
      worker: `worker-${i + 1}`,
      annotations: this.boxes(taskUuid).map((box) => ({ ...box, center_x: box.center_x + i - 1 })),
      submitted_at: FAKE_TIME,
    }));
  }
}
