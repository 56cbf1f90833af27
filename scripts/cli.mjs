// The CLI as the scripts run it: the built bin from the project's root, the command echoed on
// stderr, and the script stopped with the command's exit code when it fails.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/ctxbench.js');

export function ctxbench(...args) {
  process.stderr.write(`$ ctxbench ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
