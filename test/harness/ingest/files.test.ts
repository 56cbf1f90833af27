import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Change, Commit, Language, TreeEntry } from '../../../src/harness/ingest/ingest-types.js';
import {
  classifyPath,
  decideEntry,
  decodeText,
  isDependencyBump,
  isLockfile,
  makeFilter,
} from '../../../src/harness/ingest/trees/tree-files.js';
import { git, makeRepository } from '../../helpers/git-fixture.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('files');

describe('classifyPath', () => {
  // path, language, source, test, generated, vendored
  const TABLE: readonly (readonly [string, Language | null, boolean, boolean, boolean, boolean])[] = [
    ['src/a.ts', 'typescript', true, false, false, false],
    ['src/a.mts', 'typescript', true, false, false, false],
    ['lib/a.cts', 'typescript', true, false, false, false],
    ['src/App.tsx', 'tsx', true, false, false, false],
    ['src/a.js', 'javascript', true, false, false, false],
    ['a.mjs', 'javascript', true, false, false, false],
    ['a.cjs', 'javascript', true, false, false, false],
    ['ui/Button.jsx', 'javascript', true, false, false, false],
    ['pkg/mod.py', 'python', true, false, false, false],
    ['cmd/main.go', 'go', true, false, false, false],
    ['src/lib.rs', 'rust', true, false, false, false],
    ['Main.java', null, true, false, false, false],
    ['app/Main.kt', null, true, false, false, false],
    ['src/x.c', null, true, false, false, false],
    ['include/x.h', null, true, false, false, false],
    ['src/x.cpp', null, true, false, false, false],
    ['src/x.hpp', null, true, false, false, false],
    ['x.cs', null, true, false, false, false],
    ['lib/x.rb', null, true, false, false, false],
    ['x.php', null, true, false, false, false],
    ['x.swift', null, true, false, false, false],
    ['x.scala', null, true, false, false, false],
    ['x.lua', null, true, false, false, false],
    ['scripts/run.sh', null, true, false, false, false],
    ['db/schema.sql', null, true, false, false, false],
    ['src/C.vue', null, true, false, false, false],
    ['src/C.svelte', null, true, false, false, false],
    ['README.md', null, false, false, false, false],
    ['package.json', null, false, false, false, false],
    ['Makefile', null, false, false, false, false],
    ['.env', null, false, false, false, false],
    ['logo.png', null, false, false, false, false],
    // Tests, by folder and by name.
    ['test/a.ts', 'typescript', true, true, false, false],
    ['pkg/tests/helpers.py', 'python', true, true, false, false],
    ['src/__tests__/a.js', 'javascript', true, true, false, false],
    ['spec/models/user_spec.rb', null, true, true, false, false],
    ['src/a.test.ts', 'typescript', true, true, false, false],
    ['src/a.spec.tsx', 'tsx', true, true, false, false],
    ['pkg/server_test.go', 'go', true, true, false, false],
    ['pkg/test_server.py', 'python', true, true, false, false],
    ['pkg/server_test.py', 'python', true, true, false, false],
    ['src/testing.ts', 'typescript', true, false, false, false],
    ['src/latest.ts', 'typescript', true, false, false, false],
    ['contest/a.ts', 'typescript', true, false, false, false],
    // Vendored anywhere in the path.
    ['vendor/lib/x.go', 'go', true, false, false, true],
    ['a/third_party/x.c', null, true, false, false, true],
    ['web/node_modules/left-pad/index.js', 'javascript', true, false, false, true],
    ['bower_components/jquery/jquery.js', 'javascript', true, false, false, true],
    ['vendors/x.go', 'go', true, false, false, false],
    // Generated: folders anywhere, names by pattern.
    ['dist/index.js', 'javascript', true, false, true, false],
    ['packages/a/build/x.js', 'javascript', true, false, true, false],
    ['out/a.js', 'javascript', true, false, true, false],
    ['target/debug/x.rs', 'rust', true, false, true, false],
    ['coverage/lcov.info', null, false, false, true, false],
    ['public/app.min.js', 'javascript', true, false, true, false],
    ['public/app.min.css', null, false, false, true, false],
    ['public/app.js.map', null, false, false, true, false],
    ['api/v1/service.pb.go', 'go', true, false, true, false],
    ['api/service_pb2.py', 'python', true, false, true, false],
    ['src/schema.generated.ts', 'typescript', true, false, true, false],
    ['lib/model.g.dart', null, true, false, true, false],
    ['src/builder.ts', 'typescript', true, false, false, false],
    ['src/distance.ts', 'typescript', true, false, false, false],
  ];

  it.each(TABLE)('%s', (file, language, source, test, generated, vendored) => {
    expect(classifyPath(file)).toEqual({ language, source, test, generated, vendored });
  });
});

describe('isLockfile', () => {
  it('knows the lockfiles of each ecosystem, in any folder, by their exact names', () => {
    for (const file of [
      'package-lock.json',
      'web/yarn.lock',
      'pnpm-lock.yaml',
      'npm-shrinkwrap.json',
      'crates/x/Cargo.lock',
      'go.sum',
      'poetry.lock',
      'Pipfile.lock',
      'composer.lock',
      'Gemfile.lock',
      'bun.lockb',
      'uv.lock',
    ])
      expect(isLockfile(file), file).toBe(true);
    for (const file of [
      'package.json',
      'Cargo.toml',
      'go.mod',
      'yarn.lock.md',
      'my-package-lock.json',
      'lock.ts',
    ])
      expect(isLockfile(file), file).toBe(false);
  });
});

describe('isDependencyBump', () => {
  const commit = (subject: string, paths: readonly string[]): Commit => ({
    sha: 'a'.repeat(40),
    parents: ['b'.repeat(40)],
    time: 0,
    subject,
    body: '',
    changes: paths.map((p): Change => ({ status: 'M', path: p })),
  });

  it('is a bump when every changed path is a lockfile or a manifest', () => {
    expect(isDependencyBump(commit('update things', ['package.json', 'package-lock.json']))).toBe(true);
    expect(isDependencyBump(commit('deps', ['go.mod', 'go.sum']))).toBe(true);
    expect(isDependencyBump(commit('deps', ['svc/requirements-dev.txt']))).toBe(true);
    expect(isDependencyBump(commit('deps', ['Cargo.toml', 'Cargo.lock', 'pyproject.toml', 'uv.lock']))).toBe(
      true,
    );
    expect(isDependencyBump(commit('deps', ['Gemfile', 'Gemfile.lock', 'composer.json']))).toBe(true);
  });

  it('is not a bump when any other file changed, or nothing did', () => {
    expect(isDependencyBump(commit('add lodash', ['package.json', 'package-lock.json', 'src/a.ts']))).toBe(
      false,
    );
    expect(isDependencyBump(commit('fix', ['src/a.ts']))).toBe(false);
    expect(isDependencyBump(commit('empty', []))).toBe(false);
  });

  it("is a bump by the bots' subjects whatever changed", () => {
    for (const subject of [
      'Bump lodash from 4.17.20 to 4.17.21',
      'bump @types/node from 20.1.0 to 20.2.0 in /web',
      'chore(deps): update typescript to v5.9',
      'chore(deps-dev): bump vitest',
      'build(deps): bump serde',
      'fix(deps): update rust crate tokio to 1.40',
      'Update dependency eslint to v9',
      'Bump the npm_and_yarn group across 1 directory with 2 updates',
    ])
      expect(isDependencyBump(commit(subject, ['src/a.ts'])), subject).toBe(true);
    for (const subject of [
      'Bump version to 2.0',
      'Update dependencies docs',
      'chore: release',
      'fix: deps check',
    ])
      expect(isDependencyBump(commit(subject, ['src/a.ts'])), subject).toBe(false);
  });
});

describe('decodeText', () => {
  it('calls bytes with a NUL in the first 8,000 binary, and only there', () => {
    const early = Buffer.alloc(9000, 'a');
    early[7999] = 0;
    expect(decodeText(early)).toBe('binary');
    const late = Buffer.alloc(9000, 'a');
    late[8000] = 0;
    expect(decodeText(late)).toBe(`${'a'.repeat(8000)}\0${'a'.repeat(999)}`);
  });

  it('refuses bytes that are not UTF-8, such as Latin-1', () => {
    expect(decodeText(Buffer.from('café\n', 'latin1'))).toBe('not-utf8');
    expect(decodeText(Buffer.from([0x61, 0xc3]))).toBe('not-utf8');
  });

  it('returns UTF-8 text as it is, without a byte order mark', () => {
    expect(decodeText(Buffer.from('café ✓\r\n', 'utf8'))).toBe('café ✓\r\n');
    expect(decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0x78]))).toBe('x');
    expect(decodeText(Buffer.alloc(0))).toBe('');
  });
});

describe('makeFilter', () => {
  const GITIGNORE: ReadonlyMap<string, string> = new Map([
    ['', '*.log\nbuild/\n!keep.log\n'],
    ['pkg', '!debug.log\nsecret.txt\n/local.ts\n'],
    ['pkg/sub', '*.txt\n!notes.txt\n'],
    // Never read by git: its folder is ignored, so nothing in it can be brought back.
    ['build', '!x.js\n'],
  ]);
  // Worked out by hand from the rules above.
  const EXPECTED: Readonly<Record<string, 'ignored' | null>> = {
    'a.log': 'ignored',
    'keep.log': null,
    'pkg/debug.log': null,
    'pkg/other.log': 'ignored',
    'pkg/secret.txt': 'ignored',
    'pkg/local.ts': 'ignored',
    'pkg/sub/local.ts': null,
    'pkg/sub/notes.txt': null,
    'pkg/sub/secret.txt': 'ignored',
    'pkg/sub/a.txt': 'ignored',
    'pkg/sub/deeper/b.txt': 'ignored',
    'build/x.js': 'ignored',
    'src/build/y.js': 'ignored',
    'src/builder.ts': null,
    'src/main.ts': null,
    'notes.txt': null,
  };

  it('applies nested .gitignore files as git does, by hand', () => {
    const filter = makeFilter({ gitignore: GITIGNORE });
    for (const [file, expected] of Object.entries(EXPECTED)) expect(filter(file), file).toBe(expected);
  });

  it('agrees with git ls-files on a working tree holding the same files', () => {
    const dir = path.join(tmp, 'ignores');
    makeRepository(dir, []);
    for (const [folder, body] of GITIGNORE) {
      fs.mkdirSync(path.join(dir, folder), { recursive: true });
      fs.writeFileSync(path.join(dir, folder, '.gitignore'), body);
    }
    for (const file of Object.keys(EXPECTED)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), 'x');
    }
    const ignored = git(dir, ['ls-files', '--others', '--ignored', '--exclude-standard', '-z'])
      .split('\0')
      .filter((p) => p !== '')
      .sort();
    const filter = makeFilter({ gitignore: GITIGNORE });
    // The .gitignore files are paths of the tree too (build's own is inside an ignored folder).
    const files = [
      ...Object.keys(EXPECTED),
      ...[...GITIGNORE.keys()].map((f) => (f === '' ? '.gitignore' : `${f}/.gitignore`)),
    ];
    expect(ignored).toEqual(files.filter((f) => filter(f) === 'ignored').sort());
  });

  it('excludes what is outside every include or inside any exclude, before the .gitignore files', () => {
    const filter = makeFilter({
      include: ['src/', '*.md'],
      exclude: ['**/*.snap', 'src/generated/'],
      gitignore: new Map([['', 'build/\n']]),
    });
    expect(filter('src/a.ts')).toBeNull();
    expect(filter('docs/guide.md')).toBeNull();
    expect(filter('lib/a.ts')).toBe('excluded');
    expect(filter('src/__snapshots__/a.ts.snap')).toBe('excluded');
    expect(filter('src/generated/x.ts')).toBe('excluded');
    expect(filter('src/build/x.ts')).toBe('ignored');
    // Outside the includes and ignored too: the user's choice is the reason counted.
    expect(filter('build/readme.ts')).toBe('excluded');
  });

  it('lets everything through with no options', () => {
    const filter = makeFilter({});
    expect(filter('a/b/c.log')).toBeNull();
    expect(filter('node_modules/x/index.js')).toBeNull();
  });
});

describe('decideEntry', () => {
  const entry = (p: string, mode: string, size: number): TreeEntry => ({
    path: p,
    mode,
    blob: 'a'.repeat(40),
    size,
  });
  const filter = makeFilter({ exclude: ['docs/'] });
  const decide = (e: TreeEntry): ReturnType<typeof decideEntry> =>
    decideEntry(e, classifyPath(e.path), filter, 100);

  it('skips symlinks, submodules, files over the size limit, lockfiles and filtered paths', () => {
    expect(decide(entry('link.ts', '120000', 5))).toBe('symlink');
    expect(decide(entry('vendor/lib', '160000', 0))).toBe('submodule');
    expect(decide(entry('big.ts', '100644', 101))).toBe('too-large');
    expect(decide(entry('package-lock.json', '100644', 50))).toBe('lockfile');
    expect(decide(entry('docs/a.ts', '100644', 50))).toBe('excluded');
  });

  it('keeps a file at exactly the limit, executables, and generated or vendored files', () => {
    expect(decide(entry('ok.ts', '100644', 100))).toBeNull();
    expect(decide(entry('run.sh', '100755', 10))).toBeNull();
    expect(decide(entry('dist/index.js', '100644', 10))).toBeNull();
    expect(decide(entry('vendor/x/y.go', '100644', 10))).toBeNull();
  });
});
