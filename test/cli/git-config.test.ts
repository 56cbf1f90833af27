/**
 * A repository's own configuration names programs for git to run. `ingest`, `pack` and the MCP
 * server's `pack` read repositories nobody vetted, so none of those programs may run: each key
 * git documents as running a command is set to a script that leaves a mark, every hook is such a
 * script, and after each command the marks are counted. The same repository first shows, by git
 * run without ctxbench's overrides, that the scripts do run when git is let to run them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { figureRow, n } from '../helpers/figures.js';
import { git } from '../helpers/git-fixture.js';
import { MAX_BYTES, makeProject } from '../helpers/ingest-fixture.js';
import { BIN, mcpClient, texts } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const tmp = fs.realpathSync(tempDir('git-config'));
const tree = path.join(tmp, 'tree');
const marks = path.join(tmp, 'marks');
const script = path.join(tmp, 'run.sh');

/** Every hook git knows (githooks(5)), each a script that leaves a mark. */
const HOOKS = [
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'fsmonitor-watchman',
  'p4-changelist',
  'p4-prepare-changelist',
  'p4-post-changelist',
  'p4-pre-submit',
  'post-index-change',
];

/** The keys of git-config(1) whose value is a program, each set to the marking script. */
const PROGRAM_KEYS = [
  'core.fsmonitor',
  'core.pager',
  'core.editor',
  'core.askPass',
  'core.sshCommand',
  'core.gitProxy',
  'core.alternateRefsCommand',
  'sequence.editor',
  'credential.helper',
  'credential.https://example.com.helper',
  'diff.external',
  'diff.mark.command',
  'diff.mark.textconv',
  'merge.mark.driver',
  'filter.mark.clean',
  'filter.mark.smudge',
  'filter.mark.process',
  'filter.a=b.clean',
  'gpg.program',
  'gpg.ssh.program',
  'gpg.x509.program',
  'interactive.diffFilter',
  'uploadpack.packObjectsHook',
  'remote.origin.uploadpack',
  'remote.origin.receivepack',
  'trailer.mark.command',
  'trailer.mark.cmd',
  'hook.pre-commit.command',
  'difftool.mark.cmd',
  'mergetool.mark.cmd',
  'browser.mark.cmd',
  'man.mark.cmd',
  'web.browser',
  'pager.log',
  'pager.ls-files',
  'pager.ls-tree',
  'pager.diff-tree',
  'pager.cat-file',
  'pager.rev-parse',
  'pager.config',
];

/** The marks left since the last call, emptied. */
function taken(): string[] {
  const text = fs.existsSync(marks) ? fs.readFileSync(marks, 'utf8') : '';
  fs.rmSync(marks, { force: true });
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

let client: Client;
beforeAll(async () => {
  makeProject(tree);
  // A filter must pass its input through; a remote transport (named by its arguments alone) fails
  // at once rather than leave git waiting for an answer.
  fs.writeFileSync(
    script,
    `#!/bin/sh\necho "$MARK_KEY $*" >> '${marks}'\n[ -n "$MARK_KEY" ] && exec cat\nexit 1\n`,
    { mode: 0o755 },
  );
  const hooks = path.join(tmp, 'hooks');
  fs.mkdirSync(hooks);
  for (const hook of HOOKS) {
    const body = `#!/bin/sh\necho "hook ${hook}" >> '${marks}'\n`;
    fs.writeFileSync(path.join(hooks, hook), body, { mode: 0o755 });
    fs.writeFileSync(path.join(tree, '.git', 'hooks', hook), body, { mode: 0o755 });
  }
  const gitDir = path.join(tree, '.git');
  for (const key of PROGRAM_KEYS) git(tree, ['config', key, `MARK_KEY=${key} ${script}`]);
  git(tree, ['config', 'core.hooksPath', hooks]);
  git(tree, ['config', 'alias.mark', `!MARK_KEY=alias ${script}`]);
  git(tree, ['config', 'filter.mark.required', 'true']);
  git(tree, ['config', 'log.showSignature', 'true']);
  git(tree, ['config', 'submodule.recurse', 'true']);
  git(tree, ['config', 'submodule.mark.update', `!MARK_KEY=submodule ${script}`]);
  git(tree, ['config', 'remote.origin.url', `ext::${script} ext`]);
  git(tree, ['config', 'protocol.ext.allow', 'always']);
  // A key set in an included file is overridden too: the listing follows includes.
  const included = path.join(tmp, 'included.config');
  fs.writeFileSync(included, `[filter "inc"]\n\tclean = MARK_KEY=include ${script}\n`);
  git(tree, ['config', 'include.path', included]);
  fs.writeFileSync(
    path.join(gitDir, 'info', 'attributes'),
    '* diff=mark merge=mark filter=mark\n*.ts filter=inc\n*.md filter=a=b\n',
  );
  // The working tree differs from the index, so that reading it would clean it through a filter.
  fs.appendFileSync(path.join(tree, 'README.md'), '\nOne more line.\n');
  ({ client } = await mcpClient(BIN, ['--root', tmp]));
}, 60_000);
afterAll(async () => {
  await client?.close();
});

const TASK = 'Fix clamp so that lo < hi';
/** Keys set beside PROGRAM_KEYS: hooks path, alias, submodule update, ext:: remote, included filter. */
const OTHER_KEYS = 5;

describe("a repository's configured programs", () => {
  it('run when git itself reads the repository (the fixture is live)', () => {
    taken();
    // What ctxbench's reading asks of git, run without its overrides.
    const plain = { ...process.env, GIT_CONFIG_NOSYSTEM: '1' };
    const run = (args: string[]) => spawnSync('git', ['-C', tree, ...args], { env: plain, stdio: 'ignore' });
    run(['ls-files', '-z', '--cached']);
    expect(taken().some((m) => m.startsWith('core.fsmonitor'))).toBe(true);
    run(['diff', '--stat']);
    expect(taken().some((m) => /^(filter|diff|include|core\.fsmonitor)/.test(m))).toBe(true);
    run(['mark']);
    expect(taken()).toContain('alias');
  });

  it('never run for ingest', async () => {
    taken();
    const out = path.join(tmp, 'corpus');
    const r = await cli('ingest', tree, '--out', out, '--commits', '3', '--max-bytes', String(MAX_BYTES));
    expect(r.code, r.stderr).toBe(0);
    expect(taken()).toEqual([]);
  });

  it('never run for pack', async () => {
    taken();
    const r = await cli('pack', tree, '--task', TASK, '--budget', '3000', '--max-bytes', String(MAX_BYTES));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('src/util.ts');
    expect(taken()).toEqual([]);
  });

  it("never run for the MCP server's pack", async () => {
    taken();
    const r = await client.callTool({
      name: 'pack',
      arguments: { dir: tree, task: TASK, budget: 3000, max_bytes: MAX_BYTES },
    });
    expect(r.isError, texts(r).join('\n')).not.toBe(true);
    expect(texts(r)[0]).toContain('src/util.ts');
    expect(taken()).toEqual([]);
  });

  it('never run to fetch an object a partial clone lacks', async () => {
    // A promisor remote reached through `ext::`, and a blob every state of the history holds
    // removed from the store, so that reading any case needs it.
    const partial = path.join(tmp, 'partial');
    makeProject(partial);
    git(partial, ['config', 'core.repositoryformatversion', '1']);
    git(partial, ['config', 'extensions.partialClone', 'origin']);
    git(partial, ['config', 'remote.origin.promisor', 'true']);
    git(partial, ['config', 'remote.origin.url', `ext::${script} lazy`]);
    git(partial, ['config', 'protocol.ext.allow', 'always']);
    const root = git(partial, ['rev-list', '--max-parents=0', 'HEAD']);
    const blob = git(partial, ['rev-parse', 'HEAD:go.mod']);
    expect(git(partial, ['rev-parse', `${root}:go.mod`])).toBe(blob);
    fs.rmSync(path.join(partial, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    // Live: git itself tries the remote for the missing blob.
    taken();
    // No time limit: a git killed for being slow on a loaded machine would leave no mark, and the
    // test would blame the overrides. The remote's script fails at once, so git ends.
    spawnSync('git', ['-C', partial, 'cat-file', '-p', blob], { stdio: 'ignore' });
    expect(taken().some((m) => m.startsWith('lazy'))).toBe(true);
    // Ingest as it is, and with a git that ignores GIT_NO_LAZY_FETCH, as releases before 2.39.4 do:
    // the protocol overrides alone must refuse the fetch.
    const olderGit = path.join(tmp, 'older-git');
    fs.mkdirSync(olderGit, { recursive: true });
    const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    fs.writeFileSync(
      path.join(olderGit, 'git'),
      `#!/bin/sh\nunset GIT_NO_LAZY_FETCH\nexec '${real}' "$@"\n`,
      {
        mode: 0o755,
      },
    );
    for (const older of [false, true]) {
      const saved = process.env.PATH;
      if (older) process.env.PATH = `${olderGit}:${saved}`;
      try {
        const out = path.join(tmp, `partial-corpus-${older}`);
        const r = await cli('ingest', partial, '--out', out, '--commits', '3', '--quiet');
        // No program of the repository's ran, whatever git did.
        expect(taken(), older ? 'a git without GIT_NO_LAZY_FETCH' : 'this git').toEqual([]);
        // A git that ignores GIT_NO_LAZY_FETCH still starts the fetch the overrides then refuse,
        // and writing the missing ids to that refused fetch races its exit: git itself dies of
        // SIGPIPE about half the time. Then ingest stops with one line naming git's refusal.
        if (older && r.code !== 0) {
          expect([r.code, r.stdout]).toEqual([2, '']);
          expect(r.stderr).toMatch(/^ctxbench: \S.*: git [a-z-]+: .+\n$/);
          continue;
        }
        // The blob is not read: the file is left out of every pool and counted, once for its one
        // version.
        expect([r.code, r.stderr]).toEqual([0, '']);
        expect(r.stdout).toMatch(/^file versions read: \d+; skipped: .*\bmissing 1\b/m);
      } finally {
        process.env.PATH = saved;
      }
    }
  });

  it('are refused past a thousand, with one line, where their overrides would not fit in an environment', async () => {
    const many = path.join(tmp, 'many');
    makeProject(many);
    const sections = Array.from({ length: 60_000 }, (_, k) => `[filter "f${k}"]\n\tclean = ${script}\n`);
    fs.appendFileSync(path.join(many, '.git', 'config'), sections.join(''));
    taken();
    const packed = await cli('pack', many, '--task', TASK, '--budget', '3000');
    const ingested = await cli('ingest', many, '--out', path.join(tmp, 'many-corpus'), '--commits', '3');
    for (const r of [packed, ingested]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(
        `ctxbench: ${many}: its git configuration sets 60000 keys that name a program to run (at most 1000)\n`,
      );
    }
    expect(fs.existsSync(path.join(tmp, 'many-corpus'))).toBe(false);
    expect(taken()).toEqual([]);
  });

  it('figures', () => {
    figureRow(
      'repository programs',
      'test/cli/git-config.test.ts',
      `${n(PROGRAM_KEYS.length + OTHER_KEYS)} configuration keys naming a program (those git-config(1) documents, one set in an included file, one whose name holds \`=\`) and ${n(HOOKS.length)} hooks, each a script that leaves a mark (git itself runs the fsmonitor, a filter and an alias of this repository): none ran for ingest, pack or the MCP server's pack; nor did a partial clone's fetch of a missing object through \`ext::\``,
    );
  });
});
