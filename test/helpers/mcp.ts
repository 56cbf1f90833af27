/** An MCP client of `ctxbench mcp`, spoken to by the SDK's own Client over stdio. */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CORPUS_DIR, ROOT } from './corpus.js';

export const BIN = path.join(ROOT, 'bin/ctxbench.js');

/**
 * A client connected to `bin mcp ...args` (the built package's, by default), and the pid of the
 * process that serves: the one the command runs again under the permission model.
 */
export async function mcpClient(
  bin = BIN,
  args: readonly string[] = [],
  cwd?: string,
): Promise<{ client: Client; pid: number }> {
  const client = new Client({ name: 'ctxbench-test', version: '0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', ...args],
    stderr: 'pipe',
    ...(cwd === undefined ? {} : { cwd }),
  });
  await client.connect(transport);
  const [server] = childrenOf(transport.pid as number);
  if (server === undefined) throw new Error('ctxbench mcp did not run itself under the permission model');
  return { client, pid: server };
}

/** The pids of a process's children (Linux). */
export const childrenOf = (pid: number): number[] =>
  fs
    .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter((p) => p !== '')
    .map(Number);

type Text = { type: 'text'; text: string };
export const texts = (r: Awaited<ReturnType<Client['callTool']>>): string[] =>
  (r.content as Text[]).map((c) => c.text);

const read = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8')) as unknown;

/** One reference case's files, and its records as a tool's arguments. */
export function referenceCase(name: string) {
  const files = {
    request: path.join(CORPUS_DIR, `${name}.request.json`),
    candidates: path.join(CORPUS_DIR, `${name}.candidates.json`),
    policy: path.join(CORPUS_DIR, 'compiler-policy-v1.json'),
  };
  return {
    files,
    args: {
      request: read(files.request) as Record<string, unknown>,
      candidates: read(files.candidates),
      policy: read(files.policy),
    },
  };
}

/** Every process below `pid`, children before their own (Linux); a process gone meanwhile is left out. */
export function treeOf(pid: number): number[] {
  let children: number[];
  try {
    children = childrenOf(pid);
  } catch {
    return [];
  }
  return children.flatMap((c) => [c, ...treeOf(c)]);
}

/** A memory figure of a process from /proc (VmRSS: resident now; VmHWM: the peak so far), in MB. */
export const memoryMb = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1]) / 1024;
};

/** Whether a process still runs: it exists and is not a zombie waiting to be reaped. */
export function running(pid: number): boolean {
  try {
    // The state follows the command's name, which is in parentheses and may hold anything.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Wait, polling, until `done` holds or `ms` pass; whether it held. Generous waits only: a slow machine is no failure. */
export async function until(done: () => boolean, ms = 60_000): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 100) {
    if (done()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return done();
}

type Message = Record<string, unknown> & { id?: string | number };

/**
 * `bin mcp ...args` spoken to line by line, as a client that writes whatever it likes: messages
 * too long for the server, lines that are not JSON. Replies are kept in the order they came.
 */
export class RawServer {
  readonly child: ChildProcess;
  readonly replies: Message[] = [];
  stderr = '';
  private pending = '';
  private readonly heard = new Set<() => void>();
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(args: readonly string[] = [], bin = BIN) {
    this.child = spawn(process.execPath, [bin, 'mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout?.on('data', (d: Buffer) => {
      this.pending += d.toString('utf8');
      for (let k = this.pending.indexOf('\n'); k >= 0; k = this.pending.indexOf('\n')) {
        this.replies.push(JSON.parse(this.pending.slice(0, k)) as Message);
        this.pending = this.pending.slice(k + 1);
      }
      for (const wake of this.heard) wake();
    });
    this.child.stderr?.on('data', (d: Buffer) => {
      this.stderr += d.toString('utf8');
    });
    this.child.stdin?.on('error', () => {});
    this.exited = new Promise((resolve) =>
      this.child.on('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  /** Write, waiting while the pipe is full. */
  async write(text: string | Buffer): Promise<void> {
    const stdin = this.child.stdin as Writable;
    if (!stdin.write(text)) await new Promise((r) => stdin.once('drain', r));
  }

  send(message: object): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  /** `head`, then `bytes` of `x`, then `tail` and the newline: one message of any length, never held whole here. */
  async sendLong(head: string, bytes: number, tail: string): Promise<void> {
    await this.write(head);
    const chunk = Buffer.alloc(1 << 20, 'x');
    for (let left = bytes; left > 0; left -= chunk.length)
      await this.write(left >= chunk.length ? chunk : chunk.subarray(0, left));
    await this.write(`${tail}\n`);
  }

  /** The first reply that `pick` accepts, once it has come. */
  async reply(pick: (m: Message) => boolean): Promise<Message> {
    for (;;) {
      const found = this.replies.find(pick);
      if (found !== undefined) return found;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.heard.delete(wake);
          resolve();
        };
        this.heard.add(wake);
      });
    }
  }

  /** The reply to request `id`. */
  replyTo(id: string | number): Promise<Message> {
    return this.reply((m) => m.id === id);
  }

  async initialize(): Promise<void> {
    await this.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    await this.replyTo('init');
    await this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** A tool call by id; its reply once it has come. */
  async call(id: string | number, name: string, args: Record<string, unknown>): Promise<Message> {
    await this.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    return this.replyTo(id);
  }

  /** The pid of the process that serves: the one the command runs again under the permission model. */
  server(): number {
    const [server] = childrenOf(this.child.pid as number);
    if (server === undefined) throw new Error('ctxbench mcp did not run itself under the permission model');
    return server;
  }
}

/** A tool result's texts, from a raw reply. */
export const resultTexts = (m: Message): string[] =>
  ((m.result as { content: Text[] }).content ?? []).map((c) => c.text);
