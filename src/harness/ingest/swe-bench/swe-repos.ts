/**
 * Where an instance's repository is under `--repos`, and which of its base commits it holds. A
 * repository that is not there, or not one, and a base commit it lacks, are reasons to skip
 * instances, never to stop: the other repositories go on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../../errors.js';
import { gitOk, openRepository, type Repository } from '../git/git.js';

/** The folders `owner/name` may be found at: `owner__name` (SWE-bench's own spelling) or `owner/name`. */
export const repositoryPlaces = (reposDir: string, repo: string): string[] => {
  const [owner, name] = repo.split('/') as [string, string];
  return [path.join(reposDir, `${owner}__${name}`), path.join(reposDir, owner, name)];
};

/** The repository `owner/name` under `reposDir`, or why there is none. */
export function findRepository(
  reposDir: string,
  repo: string,
): { readonly repo: Repository } | { readonly reason: string } {
  const places = repositoryPlaces(reposDir, repo);
  const dir = places.find((p) => fs.existsSync(p) && fs.statSync(p).isDirectory());
  if (dir === undefined) {
    const [owner, name] = repo.split('/') as [string, string];
    return { reason: `repository not found (no folder ${owner}__${name} or ${repo} under --repos)` };
  }
  try {
    // Only trees at given commits are read: a shallow clone that holds them will do.
    return { repo: openRepository(dir, { shallow: true }) };
  } catch (e) {
    if (e instanceof InputError) return { reason: `not a readable repository: ${e.message}` };
    throw e;
  }
}

const COMMITTER = /^committer .* (\d+) [+-]\d{4}$/m;

/**
 * The committer time (Unix seconds) of each of `shas` the repository holds as a commit, from one
 * `git cat-file --batch`; the others are absent.
 */
export function commitTimes(repo: Repository, shas: readonly string[]): Map<string, number> {
  const ids = [...new Set(shas)];
  const found = new Map<string, number>();
  if (ids.length === 0) return found;
  const out = gitOk(repo, ['cat-file', '--batch'], 'git cat-file', `${ids.join('\n')}\n`);
  let at = 0;
  for (const id of ids) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) throw new InputError(repo.root, `git cat-file output ends before object ${id}`);
    const [name, type, size] = out.subarray(at, eol).toString('utf8').split(' ');
    if (name !== id) throw new InputError(repo.root, `git cat-file answered ${name} for object ${id}`);
    if (size === undefined) {
      // `<id> missing`: nothing follows.
      at = eol + 1;
      continue;
    }
    const end = eol + 1 + Number(size);
    if (type === 'commit') {
      const time = COMMITTER.exec(out.subarray(eol + 1, end).toString('utf8'));
      if (time !== null) found.set(id, Number(time[1]));
    }
    at = end + 1;
  }
  return found;
}
