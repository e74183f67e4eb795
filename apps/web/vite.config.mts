import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const CONTRACTS_SOURCE = /[\\/]libs[\\/]contracts[\\/]src[\\/]/;
const lib = (name: string) => fileURLToPath(new URL(`../../libs/${name}/src/index.ts`, import.meta.url));

/**
 * The built app may run only its own scripts: a task prompt that slipped an inline handler or a
 * `javascript:` URL past both sanitizers still runs nothing. Task images come from anywhere (img-src).
 * Build only: the dev server injects inline scripts of its own.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  'img-src * data: blob:',
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-src 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'crowdbox-csp',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head' }],
  };
}

export default defineConfig({
  root,
  plugins: [react(), contentSecurityPolicy()],
  resolve: {
    alias: {
      '@crowdbox/contracts': lib('contracts'),
      '@crowdbox/boxes': lib('boxes'),
      '@crowdbox/annotator': lib('annotator'),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    rolldownOptions: {
      treeshake: {
        // libs/contracts only declares (constants, types, zod schemas): a module of it none of whose exports
        // the app uses is left out. Without this, the worker app's import of WORK_ERROR and LIMITS through
        // the index kept every schema module, and zod with them, in the worker bundle (~14 KiB gzip).
        // Every other module keeps the default (undefined): its package.json's sideEffects, else kept.
        moduleSideEffects: (id) => (CONTRACTS_SOURCE.test(id) ? false : undefined),
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
