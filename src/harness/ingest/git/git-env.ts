/**
 * The environment of every git call on a folder ctxbench does not trust. A repository's own configuration
 * (`.git/config`, and what it includes) can name programs for git to run: `core.fsmonitor` runs on
 * any read of the index, hooks, filters, diff and merge drivers, pagers, credential and signing
 * helpers, remote transports. Git's own guidance is not to run git in an untrusted `.git` at all;
 * ctxbench has to read such trees, so every call overrides, at the command-line level that beats
 * every file, each key known to name a program and each such key the repository configures. The
 * overrides travel as GIT_CONFIG_COUNT/KEY/VALUE pairs, not as `-c key=value`: a key read back from
 * a file may hold `=` in its subsection, which `-c` would split in the wrong place.
 */
import { InputError } from '../../errors.js';

/**
 * Variables that would point git at another repository, index, object store or configuration
 * than the folder asked for (they are set inside git hooks, for one): never passed on.
 */
const REPOSITORY_VARIABLES = new Set([
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_EXTERNAL_DIFF',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_ASKPASS',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
]);

/**
 * Keys set on every call, whatever the repository says: those that name a program under a fixed
 * name, and those that would reach out (a partial clone fetches a missing object from its remote,
 * through any transport, `ext::` commands included, unless no protocol is allowed).
 */
export const ALWAYS: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  // Not '': an empty hooks path is read as the current folder.
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', ''],
  ['core.askPass', ''],
  ['core.sshCommand', ''],
  ['core.gitProxy', ''],
  ['core.alternateRefsCommand', ''],
  ['sequence.editor', ''],
  ['credential.helper', ''],
  ['diff.external', ''],
  ['gpg.program', ''],
  ['gpg.openpgp.program', ''],
  ['gpg.x509.program', ''],
  ['gpg.ssh.program', ''],
  ['log.showSignature', 'false'],
  ['interactive.diffFilter', ''],
  ['uploadpack.packObjectsHook', ''],
  ['protocol.allow', 'never'],
  ['protocol.ext.allow', 'never'],
  ['protocol.file.allow', 'never'],
  ['submodule.recurse', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['core.quotePath', 'false'],
  // Files git reads whole, named by the repository: /dev/zero or a FIFO there holds git until its
  // timeout. No author is read, so no mailmap is needed (`--no-mailmap` on the log call too, for
  // the `.mailmap` of the working tree); /dev/null is an empty order, where '' would be refused.
  ['log.mailmap', 'false'],
  ['mailmap.file', ''],
  ['mailmap.blob', ''],
  ['diff.orderFile', '/dev/null'],
];

/**
 * The last part of a key that names a program to run, in any section: drivers and filters
 * (`filter.<d>.clean`, `diff.<d>.textconv`, `merge.<d>.driver`), helpers and programs
 * (`credential.<url>.helper`, `gpg.<format>.program`), tools' commands (`difftool.<t>.cmd`,
 * `trailer.<t>.command`, `hook.<h>.command`), remote programs (`remote.<r>.uploadpack`).
 */
const PROGRAM_KEYS = new Set([
  'command',
  'cmd',
  'textconv',
  'driver',
  'clean',
  'smudge',
  'process',
  'helper',
  'program',
  'sshcommand',
  'askpass',
  'editor',
  'pager',
  'gitproxy',
  'uploadpack',
  'receivepack',
  'packobjectshook',
  'alternaterefscommand',
  'external',
  'difffilter',
  'fsmonitor',
  'hookspath',
  'browser',
]);

/** Sections whose `<section>.<name>.path` is a program's path. */
const TOOL_SECTIONS = new Set(['browser', 'difftool', 'mergetool', 'man', 'guitool']);

/**
 * The value that keeps a configured key from running anything, or undefined for a key that names
 * no program. Keys come as `git config --list` prints them: section and name in lower case.
 */
export function harmlessValue(key: string): string | undefined {
  const parts = key.split('.');
  const section = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (section === 'alias') return '';
  if (section === 'pager') return 'false';
  if (last === 'fsmonitor') return 'false';
  if (last === 'hookspath') return '/dev/null';
  if (section === 'submodule' && last === 'update') return 'none';
  if (section === 'remote' && last === 'vcs') return '';
  // `protocol.allow` is overridden always; a repository's `protocol.<name>.allow` would beat it.
  if (section === 'protocol' && last === 'allow') return 'never';
  if (TOOL_SECTIONS.has(section) && last === 'path') return '';
  return PROGRAM_KEYS.has(last) ? '' : undefined;
}

/** The overrides as git reads them from its environment. */
function configVariables(pairs: readonly (readonly [string, string])[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { GIT_CONFIG_COUNT: String(pairs.length) };
  for (const [k, [key, value]] of pairs.entries()) {
    env[`GIT_CONFIG_KEY_${k}`] = key;
    env[`GIT_CONFIG_VALUE_${k}`] = value;
  }
  return env;
}

/** The environment of a git call, with `pairs` as its command-level configuration. */
export function environment(pairs: readonly (readonly [string, string])[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (
      !REPOSITORY_VARIABLES.has(name) &&
      !name.startsWith('GIT_CONFIG_KEY_') &&
      !name.startsWith('GIT_CONFIG_VALUE_')
    )
      env[name] = value;
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    // Reading must not refresh the index or take its lock in the user's repository.
    GIT_OPTIONAL_LOCKS: '0',
    // The history as committed, not as `git replace` or grafts would show it.
    GIT_NO_REPLACE_OBJECTS: '1',
    // A partial clone must not fetch what it lacks. Releases of git before this variable (2.39.4
    // and the matching releases of later lines) ignore it: there no protocol is allowed instead,
    // `protocol.<name>.allow` included, so the fetch is refused.
    GIT_NO_LAZY_FETCH: '1',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    LC_ALL: 'C',
    ...configVariables(pairs),
  };
}

/**
 * `git config --list -z`'s records (`key`, or `key` NL `value`), the last value of each key kept.
 * A key without a value is a boolean set to true.
 */
export function configOf(listed: {
  readonly status: number | null;
  readonly stdout: Buffer;
}): Map<string, string> {
  const config = new Map<string, string>();
  if (listed.status !== 0) return config;
  for (const record of listed.stdout.toString('utf8').split('\0')) {
    if (record === '') continue;
    const nl = record.indexOf('\n');
    config.set(nl < 0 ? record : record.slice(0, nl), nl < 0 ? 'true' : record.slice(nl + 1));
  }
  return config;
}

/**
 * The most keys naming a program a repository may configure. Each is overridden in git's
 * environment, which the system bounds (E2BIG); real repositories set a handful.
 */
export const MAX_PROGRAM_KEYS = 1000;

/** The overrides for a repository: the fixed ones, then one for each program it configures. */
export function overrides(dir: string, config: ReadonlyMap<string, string>): (readonly [string, string])[] {
  const pairs: (readonly [string, string])[] = [...ALWAYS];
  const fixed = new Set(ALWAYS.map(([k]) => k.toLowerCase()));
  for (const key of config.keys()) {
    const value = harmlessValue(key);
    if (value !== undefined && !fixed.has(key)) pairs.push([key, value]);
  }
  const configured = pairs.length - ALWAYS.length;
  if (configured > MAX_PROGRAM_KEYS)
    throw new InputError(
      dir,
      `its git configuration sets ${configured} keys that name a program to run (at most ${MAX_PROGRAM_KEYS})`,
    );
  return pairs;
}
