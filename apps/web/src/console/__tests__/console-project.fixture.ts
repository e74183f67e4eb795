import type { ConsoleProjectResponse } from '@crowdbox/contracts';

/** A console project as the API answers it, the `n`th of a list (uuid and names follow `n`), with `overrides`. */
export function aConsoleProject(n: number, overrides: Partial<ConsoleProjectResponse> = {}): ConsoleProjectResponse {
  return {
    uuid: `0b6c3b3e-58f4-4a53-9d0a-6a2f4c9c${String(n).padStart(4, '0')}`,
    name: `project-${n}`,
    display_name: `Project ${n}`,
    display_short_description: 'Boxes around cars',
    default_required_submissions: 1,
    default_reward: 25,
    allowed_completion_time_seconds: 600,
    has_published_tasks: false,
    available_task_count: 0,
    average_outstanding_task_reward_cents: 0,
    lifetime_payments_to_workers_cents: 0,
    template: '<p>Box every car</p>',
    variables: {},
    labels: [{ name: 'car', color: '#1f77b4' }],
    image_variable: 'image_url',
    consensus_iou_threshold: 0.5,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
    archived_at: null,
    ...overrides,
  };
}
