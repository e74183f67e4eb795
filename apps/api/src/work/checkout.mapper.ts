import { maxBoxesPerSubmission, type CheckoutResponse, type LabelInfo } from '@crowdbox/contracts';
import { sanitizePrompt } from './prompt-sanitizer';

/** What the checkout queries select. */
export interface CheckoutRow {
  checkout_id: string;
  task_id: string;
  project_id: string;
  prompt: string;
  external_image_url: string | null;
  labels: LabelInfo[];
  required_submissions: number;
  reward: number;
  checked_out_at: Date;
  expires_at: Date;
}

/** SELECT list producing a CheckoutRow from `checkouts c JOIN tasks t JOIN projects p`. */
export const CHECKOUT_ROW_SQL = `
  c.id AS checkout_id, t.id AS task_id, t.project_id, t.prompt, t.external_image_url, p.labels, t.required_submissions,
  t.reward, c.checked_out_at, c.expires_at`;

export function toCheckoutResponse(row: CheckoutRow): CheckoutResponse {
  return {
    checkout_id: row.checkout_id,
    task_uuid: row.task_id,
    project_uuid: row.project_id,
    prompt: sanitizePrompt(row.prompt),
    external_image_url: row.external_image_url,
    labels: row.labels,
    max_boxes: maxBoxesPerSubmission(row.required_submissions),
    reward: row.reward,
    checked_out_at: row.checked_out_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
  };
}
