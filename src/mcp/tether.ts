/**
 * A process's tie to the one that started it: a pipe whose other end only the parent holds, which
 * the system closes when the parent ends, however it ends (SIGKILL included). Linux's
 * PR_SET_PDEATHSIG is not reachable from Node, so a thread of the process's own waits on the pipe
 * and, at its end, kills the process, or its whole process group with every process its work
 * started (a strategy's host, git). The thread has an event loop of its own: it hears the end
 * while the main thread is busy or blocked in a read that never returns.
 */
import { Worker } from 'node:worker_threads';

/** The fd of the tie in a process that has one: the first after stdio. */
export const TETHER_FD = 3;

const WATCH = `
const { workerData } = require('node:worker_threads');
const net = require('node:net');
const tie = new net.Socket({ fd: workerData.fd, readable: true, writable: false });
tie.on('data', () => {});
tie.on('error', () => {});
tie.on('close', () => process.kill(workerData.target, 'SIGKILL'));
`;

/**
 * Kill this process (`'self'`), or its process group (`'group'`: it must lead one, as a process
 * spawned `detached` does), once the other end of the pipe on `fd` is closed. Holds no process
 * open: a process that ends on its own ends as it would without it.
 */
export function tether(fd: number, whom: 'self' | 'group'): void {
  const target = whom === 'group' ? -process.pid : process.pid;
  new Worker(WATCH, { eval: true, workerData: { fd, target } }).unref();
}
