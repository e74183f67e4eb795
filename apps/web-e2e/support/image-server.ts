import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { streetScene } from './png';

export interface ImageServer {
  /** URL of a generated image of that size (PNG), e.g. url(960, 640). */
  url: (width: number, height: number, name?: string) => string;
  close: () => Promise<void>;
}

/**
 * Task images for the browser tests, on a second local origin (as real task images are) with the
 * CORS header a requester's image host would send. No internet needed.
 */
export async function startImageServer(): Promise<ImageServer> {
  const cache = new Map<string, Buffer>();
  const server: Server = createServer((req, res) => {
    const match = /^\/images\/(\d{1,4})x(\d{1,4})(?:-[\w-]+)?\.png$/.exec(req.url ?? '');
    if (!match) {
      res.writeHead(404, { 'access-control-allow-origin': '*' }).end();
      return;
    }
    const key = `${match[1]}x${match[2]}`;
    let png = cache.get(key);
    if (!png) {
      png = streetScene(Number(match[1]), Number(match[2]));
      cache.set(key, png);
    }
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length, 'access-control-allow-origin': '*', 'cache-control': 'max-age=3600' });
    res.end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (width, height, name) => `http://127.0.0.1:${port}/images/${width}x${height}${name ? `-${name}` : ''}.png`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
