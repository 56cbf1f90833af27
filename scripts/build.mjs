#!/usr/bin/env node
// `npm run build`: dist/ from nothing, made aside and put in place whole. tsc writes into a
// folder of its own (dist.build-<pid>/); the strategies written as JavaScript (and the data beside
// them) are copied where the built registry looks for them, strategies/; whatever carries a file
// of the ledger is removed (dropTruth); then the folder is renamed to dist/, so a command running
// meanwhile sees the old build or the new one, never half of one (bin/ctxbench.js waits out the
// instant between the two renames). A failed compile removes the old dist/ too, so the bin
// refuses to run a build of sources that no longer compile. A build whose inputs have not changed
// since the last one (the digest in dist/.build-inputs) is skipped: `npx` and `npm install` run
// it again and again. `--force` builds anyway.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What tsc does not emit but a built strategy may need: JavaScript plug-ins and their data. */
const COPIED = ['.js', '.mjs', '.json'];

/**
 * Copy the plug-in files of `from` into `to` and return their names. Only regular files: a
 * symlink in strategies/ could point anywhere on the machine, and a strategy's process may read
 * dist/, so copying its target would hand that file to every strategy. A hard link to a file of
 * one of the `ledgers` folders is a regular file too, the same file as the truth it links to, so
 * a file with more than one link is compared, by device and inode, with every file of the ledgers.
 * Whatever is skipped, `say` is told which and why.
 */
export function copyStrategies(from, to, say = (line) => process.stderr.write(`${line}\n`), ledgers = []) {
  fs.mkdirSync(to, { recursive: true });
  const copied = [];
  let secret;
  for (const name of fs.readdirSync(from).sort()) {
    if (!COPIED.includes(path.extname(name))) continue;
    const file = path.join(from, name);
    // lstat, not stat: stat follows a link and would report its target as a regular file.
    const kind = fs.lstatSync(file);
    if (!kind.isFile()) {
      const what = kind.isSymbolicLink() ? 'a symbolic link' : 'not a regular file';
      say(`build: skipped strategies/${name}: ${what}, not copied into dist/`);
      continue;
    }
    if (kind.nlink > 1) {
      secret ??= filesOf(ledgers);
      const truth = secret.get(nodeOf(kind));
      if (truth !== undefined) {
        const shown = path.relative(path.dirname(from), truth);
        say(
          `build: skipped strategies/${name}: a hard link to ${shown}, a file of the ledger, not copied into dist/`,
        );
        continue;
      }
    }
    fs.copyFileSync(file, path.join(to, name));
    copied.push(name);
  }
  return copied;
}

/** Device and inode -> path, of every regular file under `dirs` (links not followed). */
function filesOf(dirs) {
  const files = new Map();
  const stack = dirs.filter((d) => fs.existsSync(d));
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile()) files.set(nodeOf(fs.lstatSync(p)), p);
    }
  }
  return files;
}

/** A file's identity: a hard link shares it with its original, a copy does not. */
const nodeOf = (s) => `${s.dev}:${s.ino}`;

/** Every path under `dir`, sorted, links not followed (a link is listed, not entered). */
function walk(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? walk(p) : [p];
    });
}

/**
 * A file bigger than this is compared by its bytes only (its size already tells it from every
 * truth file), never parsed: the build's time and memory stay bounded whatever strategies/ holds.
 */
const PARSED_AT_MOST = 64 * 1024 * 1024;

/** JSON with its keys sorted at every level: the same value gives the same text, however laid out. */
const canonical = (v) =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
          .join(',')}}`
      : JSON.stringify(v);

/** Whether `p` lies in `dir` (or is it). */
const inside = (p, dir) => {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

const digest = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The digest of the JSON value `bytes` hold, or undefined when they hold none (or too many). */
function jsonDigest(bytes) {
  if (bytes.length > PARSED_AT_MOST) return undefined;
  try {
    return digest(canonical(JSON.parse(bytes.toString('utf8'))));
  } catch {
    return undefined;
  }
}

/** What identifies each file of the `ledgers`: its device and inode, its bytes, its JSON value. */
function truthOf(ledgers) {
  const node = filesOf(ledgers);
  const bytes = new Map();
  const value = new Map();
  for (const file of [...node.values()].sort()) {
    const b = fs.readFileSync(file);
    bytes.set(digest(b), file);
    const v = jsonDigest(b);
    if (v !== undefined) value.set(v, file);
  }
  return { node, bytes, value, sizes: new Set([...node.values()].map((f) => fs.statSync(f).size)) };
}

/** What tsc or the copy makes of a file of strategies/, by its path there. */
function emittedFrom(rel) {
  const ts = /\.([mc]?)ts$/.exec(rel);
  if (ts === null || rel.endsWith(`.d.${ts[1]}ts`)) return [rel];
  const base = rel.slice(0, -ts[0].length);
  return [`${base}.${ts[1]}js`, `${base}.d.${ts[1]}ts`];
}

/**
 * After tsc and the copy, remove from `dist` what carries a file of the `ledgers`, naming each
 * through `say`, and return the paths removed. tsc emits every JSON file a plug-in imports
 * (resolveJsonModule), at any depth, re-indented, and where the import leads (`../ledger/…`
 * lands in dist/ledger/): the copy's own check never sees those. So: a file of strategies/ (at
 * any depth) that is a link, symbolic or hard, to a file of the ledger has what was made of it
 * removed; then every file of dist/ that holds a ledger file's bytes, or its JSON value however
 * laid out, is removed (a copy is as much a leak as a link). A plug-in that imported one then
 * fails to load, naming itself.
 */
export function dropTruth(
  root,
  ledgers,
  say = (line) => process.stderr.write(`${line}\n`),
  dist = path.join(root, 'dist'),
) {
  const truth = truthOf(ledgers);
  // Named as they will be once the build is in place: dist/, whatever folder it is made in.
  const shown = (p) => {
    const rel = path.relative(root, p);
    return inside(p, dist) ? path.join('dist', path.relative(dist, p)) : rel;
  };
  const removed = [];
  const remove = (file, why) => {
    fs.rmSync(file);
    removed.push(file);
    // A folder only tsc's copy of the ledger made (dist/ledger/…) goes too.
    for (let d = path.dirname(file); d !== dist && fs.readdirSync(d).length === 0; d = path.dirname(d))
      fs.rmdirSync(d);
    say(`build: removed ${shown(file)}: ${why}, a file of the ledger`);
  };
  const sources = path.join(root, 'strategies');
  for (const file of walk(sources)) {
    let target;
    try {
      target = fs.statSync(file);
    } catch {
      continue; // a link to nothing carries nothing
    }
    const to = truth.node.get(nodeOf(target));
    if (to === undefined) continue;
    const how = fs.lstatSync(file).isSymbolicLink() ? 'a symbolic link' : 'a hard link';
    for (const made of emittedFrom(path.relative(sources, file))) {
      const out = path.join(dist, 'strategies', made);
      if (fs.lstatSync(out, { throwIfNoEntry: false })?.isFile())
        remove(out, `made from ${shown(file)}, ${how} to ${shown(to)}`);
    }
  }
  for (const file of walk(dist)) {
    const kind = fs.lstatSync(file);
    if (!kind.isFile()) continue;
    const parsable = kind.size <= PARSED_AT_MOST;
    if (!parsable && !truth.sizes.has(kind.size)) continue;
    const b = fs.readFileSync(file);
    const same = truth.bytes.get(digest(b));
    if (same !== undefined) remove(file, `the same bytes as ${shown(same)}`);
    else {
      const v = parsable ? jsonDigest(b) : undefined;
      const like = v === undefined ? undefined : truth.value.get(v);
      if (like !== undefined) remove(file, `the same JSON as ${shown(like)}`);
    }
  }
  return removed;
}

/**
 * The ledgers of the package: `ledger/`, and a corpus's own `ledger/` folder, where the harness
 * looks first (lint-corpus.ts, ledgerDirOf).
 */
export function ledgersOf(root) {
  const corpora = path.join(root, 'corpus');
  const own = fs.existsSync(corpora)
    ? fs.readdirSync(corpora).map((c) => path.join(corpora, c, 'ledger'))
    : [];
  return [path.join(root, 'ledger'), ...own];
}

/** The files whose bytes decide what a build makes, beside the folders `sources` and the ledgers. */
const INPUT_FILES = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs'];
const SOURCES = ['src', 'strategies'];

/**
 * A digest of everything a build reads: the sources, the ledgers (dropTruth compares with them),
 * the configuration, this script, and the compiler's version. Links are hashed as links (their
 * target's name), since the copy and dropTruth treat them so.
 */
export function inputsDigest(root) {
  const hash = createHash('sha256');
  const tsc = createRequire(import.meta.url)('typescript/package.json').version;
  hash.update(`typescript ${tsc}\n`);
  const files = [
    ...INPUT_FILES.map((f) => path.join(root, f)),
    ...[...SOURCES.map((d) => path.join(root, d)), ...ledgersOf(root)].flatMap(walk),
  ];
  for (const file of files) {
    const kind = fs.lstatSync(file, { throwIfNoEntry: false });
    const bytes =
      kind === undefined
        ? 'absent'
        : kind.isSymbolicLink()
          ? `link ${fs.readlinkSync(file)}`
          : kind.isFile()
            ? digest(fs.readFileSync(file))
            : 'special';
    hash.update(`${path.relative(root, file)}\0${kind?.nlink ?? 0}\0${bytes}\n`);
  }
  return hash.digest('hex');
}

/** Where a build records the digest of its inputs. */
const STAMP = '.build-inputs';

/** Put the folder `made` in place of dist/, the old one aside first, then removed. */
function swapIn(root, made) {
  const dist = path.join(root, 'dist');
  const old = path.join(root, `dist.old-${process.pid}`);
  // Another build may put its dist/ in place between two of these steps: try again, a few times.
  for (let attempt = 0; ; attempt++) {
    try {
      if (fs.existsSync(dist)) fs.renameSync(dist, old);
      fs.renameSync(made, dist);
      break;
    } catch (e) {
      if (attempt >= 10 || !['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes(e.code)) throw e;
    }
  }
  fs.rmSync(old, { recursive: true, force: true });
}

/** Whether the process `pid` is running (a build's folders are named by their builder's pid). */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** The folders a build that was stopped halfway left (dist.build-<pid>, dist.old-<pid>): removed. */
function clearLeftovers(root) {
  for (const name of fs.readdirSync(root)) {
    const left = /^dist\.(?:build|old)-(\d+)$/.exec(name);
    if (left !== null && !running(Number(left[1])))
      fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

function build(root, force) {
  clearLeftovers(root);
  const dist = path.join(root, 'dist');
  const inputs = inputsDigest(root);
  const stamp = path.join(dist, STAMP);
  if (!force && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === inputs) {
    // The sources' bytes are what was built; a file touched since is not stale, and the times
    // the bin's stale-build check compares (registry.ts, checkBuilt) are brought up to date.
    const now = new Date();
    for (const file of walk(path.join(dist, 'strategies'))) fs.utimesSync(file, now, now);
    process.stderr.write('build: dist/ is up to date (npm run build -- --force builds it anyway)\n');
    return 0;
  }
  const made = path.join(root, `dist.build-${process.pid}`);
  fs.rmSync(made, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', made], {
    cwd: root,
    stdio: 'inherit',
  });
  if (compiled.status !== 0) {
    // noEmitOnError keeps a type error from writing anything; a tsc that died halfway may have.
    // The old build goes too: its sources no longer compile, and the bin must not run it.
    fs.rmSync(made, { recursive: true, force: true });
    fs.rmSync(dist, { recursive: true, force: true });
    return compiled.status ?? 1;
  }
  const ledgers = ledgersOf(root);
  copyStrategies(path.join(root, 'strategies'), path.join(made, 'strategies'), undefined, ledgers);
  dropTruth(root, ledgers, undefined, made);
  fs.writeFileSync(path.join(made, STAMP), inputs);
  swapIn(root, made);
  return 0;
}

// Imported (by its test), it only lends copyStrategies; run, it builds.
// The module's URL is its real path, so the script's path is compared as a real path too.
const invoked = process.argv[1] === undefined ? undefined : pathToFileURL(fs.realpathSync(process.argv[1]));
if (invoked?.href === import.meta.url) {
  process.exitCode = build(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
    process.argv.includes('--force'),
  );
}
