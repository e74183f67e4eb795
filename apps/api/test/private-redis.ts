import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { eventually } from './eventually';
import { freePort } from './free-port';

/** A throwaway redis-server of the test's own (the binary CI installs), to stop, pause or kill at will. */
export interface PrivateRedis {
  url: string;
  port: number;
  /** SIGSTOP: the connection stays open and nothing answers, as with a stuck or partitioned Redis. */
  pause: () => void;
  resume: () => void;
  stop: () => Promise<void>;
}

export async function startPrivateRedis(port?: number): Promise<PrivateRedis> {
  const at = port ?? (await freePort());
  const child: ChildProcess = spawn('redis-server', ['--port', String(at), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const listening = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(at, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  if (!(await eventually(listening, 5000))) throw new Error(`redis-server did not start on ${at}`);
  return {
    url: `redis://127.0.0.1:${at}`,
    port: at,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
