import { join } from 'node:path';

/** The repository's root, for the paths the browser tests build from it (the web app's build, screenshots). */
export const REPO_ROOT = join(__dirname, '..', '..', '..');
