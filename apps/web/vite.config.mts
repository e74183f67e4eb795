import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const lib = (name: string) => fileURLToPath(new URL(`../../libs/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  root,
  plugins: [react()],
  resolve: {
    alias: {
      '@crowdbox/contracts': lib('contracts'),
      '@crowdbox/boxes': lib('boxes'),
      '@crowdbox/annotator': lib('annotator'),
    },
  },
  build: { outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)), emptyOutDir: true },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
