import { describe, expect, it } from '@jest/globals';
import { peerAgreementText } from '../peer-agreement-text';

describe('peerAgreementText', () => {
  it('words how many of the other workers’ boxes a worker matched', () => {
    expect(peerAgreementText({ worker: 'worker_000000000001', boxes: 1, peer_boxes: 2, matched: 1 })).toBe('matches 1 of the others’ 2 boxes');
    expect(peerAgreementText({ worker: 'worker_000000000001', boxes: 3, peer_boxes: 1, matched: 0 })).toBe('matches 0 of the others’ 1 box');
    expect(peerAgreementText({ worker: 'worker_000000000001', boxes: 2, peer_boxes: 0, matched: 0 })).toBe('matches 0 of the others’ 0 boxes');
  });

  it('says two workers who drew nothing agree', () => {
    expect(peerAgreementText({ worker: 'worker_000000000001', boxes: 0, peer_boxes: 0, matched: 0 })).toBe('agrees: nobody drew a box');
  });
});
