// Stopping the children npm start owns. They run in their own process groups (detached), so a Ctrl-C in
// the terminal reaches only this script, which then stops them in order: API first, its databases last.
import { spawn } from 'node:child_process';

/** spawn() in a new process group; resolves `exited` with {code, signal} when the child is gone. */
export function spawnOwned(command, args, options) {
  const child = spawn(command, args, { ...options, detached: true });
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return child;
}

export function isRunning(child) {
  return child.exitCode === null && child.signalCode === null;
}

/** Sends SIGTERM, waits up to `graceMs`, then SIGKILL; resolves once the child has exited. */
export async function stopChild(child, graceMs = 10_000) {
  if (!isRunning(child)) return child.exited;
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    if (isRunning(child)) child.kill('SIGKILL');
  }, graceMs);
  const result = await child.exited;
  clearTimeout(timer);
  return result;
}

/** Last resort when this script exits abruptly (uncaught error): nothing it started may outlive it. */
export function killOnExit(children) {
  process.once('exit', () => {
    for (const child of children()) {
      if (child && isRunning(child)) child.kill('SIGKILL');
    }
  });
}
