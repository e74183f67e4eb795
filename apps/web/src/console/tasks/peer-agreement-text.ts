import type { ConsoleTaskDetail } from '../lib/console-api';
import { plural } from '../lib/format';

type PeerAgreement = ConsoleTaskDetail['peer_agreement'][number];

/**
 * One worker's boxes against the other workers' consensus on this task, in words for the task page's
 * list of workers ("matches 1 of the others’ 2 boxes"): the per-task figure the Workers page sums.
 */
export function peerAgreementText({ boxes, peer_boxes, matched }: PeerAgreement): string {
  if (boxes === 0 && peer_boxes === 0) return 'agrees: nobody drew a box';
  return `matches ${matched} of the others’ ${plural(peer_boxes, 'box', 'boxes')}`;
}
