// Starts a server as a child process, waits until it answers, and stops it again (SIGTERM, then SIGKILL).
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Every child still running, so the driver can stop them all on error or Ctrl-C. */
const running = new Set();

/** A TCP port nobody listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `node ...args` with `env`, its output going to `logFile`, and resolves once GET `readyPath`
 * answers 200. Rejects (after killing it) when the child exits first or `timeoutMs` passes.
 */
export async function startServer({ name, args, env, cwd, port, readyPath = '/readyz', logFile, timeoutMs = 90_000 }) {
  // The child writes its output straight into the log file (not through a pipe to this process), so
  // the driver spends no CPU on the servers' logs while it measures them.
  const fd = logFile ? openSync(logFile, 'w') : 'ignore';
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', fd, fd] });
  if (typeof fd === 'number') closeSync(fd);
  const tail = () => {
    try {
      return logFile ? readFileSync(logFile, 'utf8').slice(-4000) : '';
    } catch {
      return '';
    }
  };
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const server = {
    name,
    child,
    pid: child.pid,
    port,
    url: `http://127.0.0.1:${port}`,
    exited,
    logFile,
    tail,
    stop: () => stopChild(server),
  };
  running.add(server);

  let early = null;
  exited.then((r) => (early = r));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (early) {
      running.delete(server);
      throw new Error(`${name} exited during start (code ${early.code}, signal ${early.signal}):\n${tail()}`);
    }
    try {
      const res = await fetch(server.url + readyPath, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`${name} was not ready after ${timeoutMs} ms:\n${tail()}`);
    }
    await sleep(200);
  }
}

async function stopChild(server) {
  const { child } = server;
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const result = await Promise.race([server.exited, sleep(15_000).then(() => null)]);
    if (result === null) {
      child.kill('SIGKILL');
      await server.exited;
    }
  }
  running.delete(server);
}

/** Stops every child this process started and that is still running. */
export async function stopAll() {
  await Promise.allSettled([...running].map((s) => s.stop()));
}

/** Last resort when the driver exits without cleaning up (synchronous: SIGKILL only our own children). */
export function killAllSync() {
  for (const s of running) {
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  }
}
