import { describe, expect, it, jest } from '@jest/globals';
import { retryableImport } from '../retryable-import';

describe('retryableImport', () => {
  it('forgets a failed import, so the next load is a new attempt, and keeps the one that worked', async () => {
    const importer = jest
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue('the module');
    const chunk = retryableImport(importer);

    await expect(chunk.load()).rejects.toThrow('Failed to fetch');
    expect(chunk.loaded).toBeUndefined();
    await expect(chunk.load()).resolves.toBe('the module');
    expect(chunk.loaded).toBe('the module');
    await expect(chunk.load()).resolves.toBe('the module');
    expect(importer).toHaveBeenCalledTimes(2);
  });

  it('joins an attempt under way (a preload, then the render) rather than starting a second', async () => {
    const importer = jest.fn(() => Promise.resolve('the module'));
    const chunk = retryableImport(importer);
    const [a, b] = await Promise.all([chunk.load(), chunk.load()]);
    expect([a, b]).toEqual(['the module', 'the module']);
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('loads a stylesheet that failed anew before trying again, and fails while it still does not load', async () => {
    const failed = document.createElement('link');
    failed.rel = 'stylesheet';
    failed.href = 'http://localhost/assets/part.css';
    document.head.append(failed);
    failed.dispatchEvent(new Event('error'));
    const importer = jest.fn<() => Promise<string>>().mockRejectedValueOnce(new TypeError('offline')).mockResolvedValue('the module');
    const chunk = retryableImport(importer);
    await expect(chunk.load()).rejects.toThrow('offline');

    const retried = chunk.load();
    const fresh = document.head.querySelector<HTMLLinkElement>('link[rel="stylesheet"]');
    expect(fresh).not.toBe(failed);
    expect(fresh?.href).toBe('http://localhost/assets/part.css');
    fresh?.dispatchEvent(new Event('error'));
    await expect(retried).rejects.toThrow('Unable to load the stylesheet http://localhost/assets/part.css');
    expect(importer).toHaveBeenCalledTimes(1);

    const again = chunk.load();
    const third = document.head.querySelector<HTMLLinkElement>('link[rel="stylesheet"]');
    expect(third).not.toBe(fresh);
    third?.dispatchEvent(new Event('load'));
    await expect(again).resolves.toBe('the module');
    expect(document.head.querySelectorAll('link[rel="stylesheet"]')).toHaveLength(1);
  });
});
