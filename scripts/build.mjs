#!/usr/bin/env node
// `npm run build`: dist/ from nothing. The old dist/ goes first, so a failed compile leaves no
// build behind for the bin to run. Then tsc, then the strategies written as JavaScript (and the
// data beside them) are copied where the built registry looks for them: dist/strategies/.
import { spawnSync } from 'node:child_process';
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
      const truth = secret.get(`${kind.dev}:${kind.ino}`);
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
      else if (e.isFile()) {
        const s = fs.lstatSync(p);
        files.set(`${s.dev}:${s.ino}`, p);
      }
    }
  }
  return files;
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

function build(root) {
  const dist = path.join(root, 'dist');
  fs.rmSync(dist, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (compiled.status !== 0) {
    // noEmitOnError keeps a type error from writing anything; a tsc that died halfway may have.
    fs.rmSync(dist, { recursive: true, force: true });
    return compiled.status ?? 1;
  }
  copyStrategies(path.join(root, 'strategies'), path.join(dist, 'strategies'), undefined, ledgersOf(root));
  return 0;
}

// Imported (by its test), it only lends copyStrategies; run, it builds.
// The module's URL is its real path, so the script's path is compared as a real path too.
const invoked = process.argv[1] === undefined ? undefined : pathToFileURL(fs.realpathSync(process.argv[1]));
if (invoked?.href === import.meta.url) {
  process.exitCode = build(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
}
