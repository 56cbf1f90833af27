/**
 * A repository's configuration may name files for git to read, and a file that never ends
 * (/dev/zero) or never opens (a FIFO) holds git until its ten-minute timeout. `git log`, which
 * `ingest` runs, reads the mailmap (`mailmap.file`, `mailmap.blob`, the working tree's `.mailmap`)
 * and `diff.orderFile`; each is overridden or switched off (issue 47). Each case is ingested in a
 * process group of its own, killed only by a guard that stands for "hung", never timed.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { processArgs } from '../helpers/cli.js';
import { git } from '../helpers/git-fixture.js';
import { makeProject } from '../helpers/ingest-fixture.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('git-config-reads');

// Far past what ingesting the small fixture takes; short of git's own ten minutes.
const GUARD = 120_000;

/** `ctxbench ingest` of `repo` from the sources: its exit code, or null when the guard killed it. */
function ingest(repo: string, out: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const args = processArgs('ingest', repo, '--out', out, '--commits', '3', '--quiet');
    // A group of its own, so that the guard kills git with it: an orphaned git reading
    // /dev/zero would spin until the machine stops.
    const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    const guard = setTimeout(() => process.kill(-(child.pid as number), 'SIGKILL'), GUARD);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stderr });
    });
  });
}

/** Each way a repository names a file git reads whole, set on a fresh copy of the fixture. */
const CASES: readonly (readonly [string, (repo: string) => void])[] = [
  ['mailmap.file is /dev/zero', (repo) => git(repo, ['config', 'mailmap.file', '/dev/zero'])],
  ['mailmap.file is a FIFO', (repo) => git(repo, ['config', 'mailmap.file', fifo(repo, 'mailmap')])],
  ["the working tree's .mailmap is a FIFO", (repo) => fifo(repo, '.mailmap')],
  ['diff.orderFile is a FIFO', (repo) => git(repo, ['config', 'diff.orderFile', fifo(repo, 'order')])],
];

/** A FIFO nobody writes, at `name` in the repository's working tree. */
function fifo(repo: string, name: string): string {
  const file = path.join(repo, name);
  const made = spawnSync('mkfifo', [file]);
  if (made.status !== 0) throw new Error(`mkfifo ${file}: ${made.stderr.toString()}`);
  return file;
}

describe('files a repository names for git to read', () => {
  it('are read by git itself (the fixture is live)', () => {
    // A mailmap of the repository's choosing renames the author in a plain `git log`.
    const repo = path.join(tmp, 'live');
    makeProject(repo);
    const mailmap = path.join(tmp, 'live.mailmap');
    fs.writeFileSync(mailmap, 'Mapped Name <fixture@example.com>\n');
    git(repo, ['config', 'mailmap.file', mailmap]);
    expect(git(repo, ['log', '-1', '--format=%aN'])).toBe('Mapped Name');
  });

  // Concurrent: each case is a process of its own, and most of its time is starting one.
  it.concurrent.each(CASES)(
    'do not hold ingest: %s',
    async (name, configure) => {
      const repo = path.join(tmp, name.replace(/\W+/g, '-'));
      makeProject(repo);
      configure(repo);
      const r = await ingest(repo, `${repo}-corpus`);
      expect(r.code, r.code === null ? 'ingest hung and was killed by the guard' : r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(fs.readdirSync(`${repo}-corpus`).some((f) => f.endsWith('.candidates.json'))).toBe(true);
    },
    GUARD + 30_000,
  );
});
