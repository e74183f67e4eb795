/**
 * Why a worker gives a task back, when it is the task's fault (POST /api/work/checkouts/:id/release,
 * docs/decisions.md "Problem reports"): its owner sees the count of each on the task. A module of its
 * own, without zod, because the worker's report panel imports it: a constant beside a schema brings zod
 * into the chunk that imports it (the schema's top-level calls are kept as possible side effects).
 */
export const TASK_PROBLEMS = ['image_broken', 'unclear_instructions', 'offensive_content', 'other'] as const;
export type TaskProblem = (typeof TASK_PROBLEMS)[number];
