#!/usr/bin/env node
// Restores package-lock.json entries for platform-specific optional packages (darwin, win32, arm...)
// that `npm install` drops when the registry it talks to does not carry them.
//
// Why: the registry mirror on our build machines only holds the linux-x64 builds of native packages
// (@swc/core-*, @unrs/resolver-binding-*, @msgpackr-extract/*). `npm install` there silently leaves the
// other platforms out of the lock, and `npm ci` then refuses the lock as "out of sync" ("Missing:
// @swc/core-darwin-arm64@ from lock file"). A lock written against the full registry has these entries
// with their `os`/`cpu`/`libc` fields, which is what lets npm skip them on every other platform; this
// script writes the same entries back (without `integrity`, which only the full registry knows).
//
// Run it after any `npm install` that changes the lock:  node scripts/lock-platform-stubs.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const lockPath = fileURLToPath(new URL('../package-lock.json', import.meta.url));
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony', 'netbsd', 'openbsd', 'sunos', 'aix'];
const CPU = ['x64', 'arm64', 'arm', 'ia32', 'ppc64', 'riscv64', 's390x', 'loong64', 'wasm32'];

/** Reads os/cpu/libc from a platform package name such as `@swc/core-linux-arm-gnueabihf`. */
function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((t) => OS.includes(t));
  const cpu = tokens.find((t) => CPU.includes(t));
  if (!os || !cpu) return undefined;
  const entry = { os: [os], cpu: [cpu] };
  if (os === 'linux') {
    if (tokens.some((t) => t.startsWith('musl'))) entry.libc = ['musl'];
    else if (tokens.some((t) => t.startsWith('gnu'))) entry.libc = ['glibc'];
  }
  return entry;
}

/** Node's resolution: the nearest node_modules/<name> walking up from the dependent's folder. */
function resolves(fromKey, name) {
  let dir = fromKey;
  for (;;) {
    if (packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
    if (!dir) return false;
    const at = dir.lastIndexOf('/node_modules/');
    dir = at === -1 ? '' : dir.slice(0, at);
  }
}

let added = 0;
for (const [key, pkg] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(pkg.optionalDependencies ?? {})) {
    if (resolves(key, name)) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+/.test(spec)) {
      console.warn(`lock-platform-stubs: left ${name}@${spec} (needed by ${key}) alone: not a pinned platform package`);
      continue;
    }
    const entry = { version: spec, ...platform, optional: true };
    if (pkg.dev) entry.dev = true;
    if (pkg.devOptional) entry.devOptional = true;
    packages[`node_modules/${name}`] = entry;
    added += 1;
  }
}

// Keep npm's own ordering (sorted keys after the root entry) so later installs produce small diffs.
const [rootKey, ...rest] = Object.keys(packages);
lock.packages = Object.fromEntries([[rootKey, packages[rootKey]], ...rest.sort((a, b) => a.localeCompare(b, 'en')).map((k) => [k, packages[k]])]);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platform-stubs: ${added} platform entr${added === 1 ? 'y' : 'ies'} restored`);
