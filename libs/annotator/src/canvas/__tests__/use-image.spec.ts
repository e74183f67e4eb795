import { crossOriginFor, retryUrl } from '../use-image';

describe('crossOriginFor', () => {
  const page = 'https://crowdbox.example';

  it('asks for CORS only for another origin', () => {
    expect(crossOriginFor('https://images.example/a.jpg', page)).toBe('anonymous');
    expect(crossOriginFor('/api/images/a.jpg', page)).toBeUndefined();
    expect(crossOriginFor('https://crowdbox.example/a.jpg', page)).toBeUndefined();
    expect(crossOriginFor('data:image/png;base64,AAAA', page)).toBeUndefined();
    expect(crossOriginFor('blob:https://crowdbox.example/1234', page)).toBeUndefined();
  });
});

describe('retryUrl', () => {
  const page = 'https://crowdbox.example/work/p';

  it('busts the cache of a retry of a URL without a query, keeping its fragment', () => {
    expect(retryUrl('https://images.example/a.jpg', 0, page)).toBe('https://images.example/a.jpg');
    expect(retryUrl('https://images.example/a.jpg', 2, page)).toBe('https://images.example/a.jpg?crowdbox_retry=2');
    expect(retryUrl('/img/a.jpg#x', 1, page)).toBe('https://crowdbox.example/img/a.jpg?crowdbox_retry=1#x');
  });

  it('loads a URL with a query (perhaps signed) and data: or blob: URLs as they are', () => {
    const signed = 'https://bucket.s3.amazonaws.com/a.jpg?X-Amz-Signature=abc&X-Amz-Expires=900';
    expect(retryUrl(signed, 1, page)).toBe(signed);
    expect(retryUrl('data:image/png;base64,AAAA', 1, page)).toBe('data:image/png;base64,AAAA');
    expect(retryUrl('blob:https://crowdbox.example/1234', 1, page)).toBe('blob:https://crowdbox.example/1234');
  });
});
