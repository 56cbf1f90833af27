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
 * dist/, so copying its target would hand that file to every strategy. A link (or anything else
 * that is not a file) is skipped, and `say` is told which and why.
 */
export function copyStrategies(from, to, say = (line) => process.stderr.write(`${line}\n`)) {
  fs.mkdirSync(to, { recursive: true });
  const copied = [];
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
    fs.copyFileSync(file, path.join(to, name));
    copied.push(name);
  }
  return copied;
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
  copyStrategies(path.join(root, 'strategies'), path.join(dist, 'strategies'));
  return 0;
}

// Imported (by its test), it only lends copyStrategies; run, it builds.
// The module's URL is its real path, so the script's path is compared as a real path too.
const invoked = process.argv[1] === undefined ? undefined : pathToFileURL(fs.realpathSync(process.argv[1]));
if (invoked?.href === import.meta.url) {
  process.exitCode = build(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
}
