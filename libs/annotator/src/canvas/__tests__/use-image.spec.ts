import { crossOriginFor } from '../use-image';

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
