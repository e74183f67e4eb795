import type { Box } from '@crowdbox/boxes';
import type { CheckoutResponse } from '@crowdbox/contracts';
import { jest } from '@jest/globals';
import { workApi } from '../../api/work.api';

/** The project, the user and a box that the tests of useTaskLease share. */
export const PROJECT = 'p-1';
export const USER = 'u1';
export const box: Box = { label: 'car', center_x: 50, center_y: 50, width: 20, height: 20 };

/** A lease of PROJECT as the checkout answers it. */
export function aLease(checkoutId: string): CheckoutResponse {
  return {
    checkout_id: checkoutId,
    task_uuid: `task-${checkoutId}`,
    project_uuid: PROJECT,
    prompt: '<p>Box every car</p>',
    external_image_url: 'https://example.com/a.jpg',
    labels: [{ name: 'car', color: '#1f77b4' }],
    reward: 25,
    checked_out_at: '2026-11-26T10:00:00.000Z',
    expires_at: '2026-11-26T10:10:00.000Z',
  };
}

/** The project hands out these leases, one per checkout. */
export function handsOut(...checkoutIds: string[]) {
  const checkOut = jest.spyOn(workApi, 'checkOut');
  for (const id of checkoutIds) {
    const data = aLease(id);
    checkOut.mockResolvedValueOnce({ data, body: { data }, status: 201 });
  }
  return checkOut;
}
