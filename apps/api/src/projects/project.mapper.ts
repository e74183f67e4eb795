import type { ConsoleProjectResponse, ProjectResponse } from '@crowdbox/contracts';
import type { Project } from './project.entity';
import type { ProjectStats } from './project-stats';

/** The requester API's Project, in the seed spec's field order. */
export function toProjectResponse(project: Project, stats: ProjectStats): ProjectResponse {
  return {
    allowed_completion_time_seconds: project.allowedCompletionTimeSeconds,
    available_task_count: stats.availableTaskCount,
    average_outstanding_task_reward_cents: stats.averageOutstandingTaskRewardCents,
    default_required_submissions: project.defaultRequiredSubmissions,
    default_reward: project.defaultReward,
    display_name: project.displayName,
    display_short_description: project.displayShortDescription,
    has_published_tasks: stats.hasPublishedTasks,
    lifetime_payments_to_workers_cents: stats.lifetimePaymentsToWorkersCents,
    name: project.name,
    uuid: project.id,
  };
}

export function toConsoleProjectResponse(project: Project, stats: ProjectStats): ConsoleProjectResponse {
  return {
    ...toProjectResponse(project, stats),
    template: project.template,
    variables: project.variables,
    labels: project.labels,
    image_variable: project.imageVariable,
    consensus_iou_threshold: Math.round(project.consensusIouThreshold * 1000) / 1000,
    created_at: project.createdAt.toISOString(),
    updated_at: project.updatedAt.toISOString(),
    archived_at: project.archivedAt ? project.archivedAt.toISOString() : null,
  };
}
