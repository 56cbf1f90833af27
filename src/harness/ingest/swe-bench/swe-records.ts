/**
 * SWE-bench's instance records, as the benchmark publishes them: a JSON array or JSON Lines (the
 * Hugging Face export), one record an instance, of which five fields are read (`instance_id`,
 * `repo`, `base_commit`, `problem_statement`, `patch`) and every other ignored. A record that
 * lacks one, or holds a value no instance has, stops the ingest with the file, the record and the
 * field named. The gold patch's files are read here too, so a patch that names none is refused
 * with its record.
 */
import fs from 'node:fs';
import { quote } from '../../../compiler/index.js';
import { openRegular, readJsonFile, readJsonLines } from '../../corpus/index.js';
import { InputError, UsageError } from '../../errors.js';
import { int } from '../../format.js';
import { OBJECT_ID } from '../git/git.js';
import { TASK_LIMIT } from '../ingested-corpus.js';
import { type PatchFiles, patchFiles } from './gold-patch.js';

export interface Instance {
  readonly instance_id: string;
  /** `owner/name`. */
  readonly repo: string;
  readonly base_commit: string;
  readonly problem_statement: string;
  readonly patch: string;
  /** The files the gold patch edits and creates. */
  readonly gold: PatchFiles;
  /** Where the record is: `line N` of JSON Lines, `[k]` of an array. */
  readonly where: string;
}

/** A case is named by its instance: the id is a file name, so it holds no separator or dot run. */
const INSTANCE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/;
const REPO = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

const NEEDS: Readonly<Record<string, string>> = {
  instance_id: 'letters, digits, _ . - and at most 200 of them, e.g. "psf__requests-2317"',
  repo: 'owner/name, e.g. "psf/requests"',
  base_commit: "a commit's full object id",
  problem_statement: "the issue's text",
  patch: 'the gold patch, a unified diff',
};

/**
 * The longest problem statement and gold patch a record may hold, in characters: past them the
 * instance cannot be useful, so the record is refused like any other wrong field. The statement
 * is the task (TASK_LIMIT); the patch is what a model must write, and a million characters is
 * about a quarter of a million tokens, more than any model writes in one answer (SWE-bench Lite's
 * longest is 4,929 characters).
 */
const BOUNDS: readonly (readonly ['problem_statement' | 'patch', number, string])[] = [
  ['problem_statement', TASK_LIMIT, 'the task is whole in every bundle'],
  ['patch', 1_000_000, 'the answer a model must write'],
];

/** One record's fields checked; the first wrong one stops, named. */
function instanceOf(file: string, where: string, raw: unknown): Instance {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new InputError(file, `not a JSON object: ${quote(raw)}`, where);
  const o = raw as Record<string, unknown>;
  const field = (name: string, ok: (v: string) => boolean): string => {
    if (!Object.hasOwn(o, name)) throw new InputError(file, `missing ${name}`, where);
    const v = o[name];
    if (typeof v !== 'string' || !ok(v))
      throw new InputError(file, `invalid ${name}: ${quote(v)} (need ${NEEDS[name]})`, where);
    return v;
  };
  const repo = field('repo', (v) => REPO.test(v) && !v.split('/').some((p) => p === '.' || p === '..'));
  const instance = {
    instance_id: field('instance_id', (v) => INSTANCE_ID.test(v) && !v.includes('..')),
    repo,
    base_commit: field('base_commit', (v) => OBJECT_ID.test(v)),
    problem_statement: field('problem_statement', (v) => v.trim() !== ''),
    patch: field('patch', () => true),
  };
  // Before the patch is parsed and anything counted: a 68 MB problem statement took minutes.
  for (const [name, limit, why] of BOUNDS)
    if (instance[name].length > limit)
      throw new InputError(
        file,
        `invalid ${name}: ${int(instance[name].length)} characters (need at most ${int(limit)}: ${why})`,
        where,
      );
  const gold = patchFiles(instance.patch);
  if ('problem' in gold) throw new InputError(file, `invalid patch: ${gold.problem}`, where);
  return { ...instance, gold, where };
}

/** Whether the file opens with `[`: a JSON array, else JSON Lines. */
function isArrayFile(file: string): boolean {
  const head = Buffer.alloc(4096);
  // Without waiting and only a regular file: a FIFO nobody writes held `open` for ever.
  const fd = openRegular(file);
  try {
    const n = fs.readSync(fd, head, 0, head.length, 0);
    const text = head
      .subarray(0, n)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    return text.trimStart().startsWith('[');
  } finally {
    fs.closeSync(fd);
  }
}

/** Every record of an instances file, checked; two with one id are refused. */
export function readInstances(file: string): Instance[] {
  const records = isArrayFile(file)
    ? (() => {
        const list = readJsonFile(file) as unknown[];
        if (!Array.isArray(list)) throw new InputError(file, 'not a JSON array of instances');
        return list.map((value, k) => ({ where: `[${k}]`, value }));
      })()
    : readJsonLines(file).map(({ line, value }) => ({ where: `line ${line}`, value }));
  if (records.length === 0) throw new InputError(file, 'no instance records');
  const seen = new Map<string, string>();
  return records.map(({ where, value }) => {
    const instance = instanceOf(file, where, value);
    const before = seen.get(instance.instance_id);
    if (before !== undefined)
      throw new InputError(
        file,
        `instance_id ${quote(instance.instance_id)} again (first at ${before})`,
        where,
      );
    seen.set(instance.instance_id, where);
    return instance;
  });
}

export interface InstanceFilter {
  /** Only these ids, each of which must be a record's. */
  readonly instances?: readonly string[] | undefined;
  /** Only these repositories' (`owner/name`). */
  readonly repos?: readonly string[] | undefined;
  /** At most this many, the first in the file's order. */
  readonly limit?: number | undefined;
}

/** The records the filters keep, in the file's order; an id no record has is a usage error. */
export function selectInstances(all: readonly Instance[], filter: InstanceFilter): Instance[] {
  let kept = [...all];
  if (filter.instances !== undefined) {
    const ids = new Set(all.map((i) => i.instance_id));
    const unknown = filter.instances.filter((id) => !ids.has(id));
    if (unknown.length > 0)
      throw new UsageError(
        `--instances: no record has instance_id ${unknown.map((u) => quote(u)).join(', ')}`,
      );
    const wanted = new Set(filter.instances);
    kept = kept.filter((i) => wanted.has(i.instance_id));
  }
  if (filter.repos !== undefined) {
    const wanted = new Set(filter.repos);
    kept = kept.filter((i) => wanted.has(i.repo));
  }
  if (filter.limit !== undefined) kept = kept.slice(0, filter.limit);
  return kept;
}

/** Ids in their repository's order: `owner__name-<number>` by number, others by text. */
export function byInstanceId(a: Instance, b: Instance): number {
  const [pa, na] = splitId(a.instance_id);
  const [pb, nb] = splitId(b.instance_id);
  if (pa !== pb) return pa < pb ? -1 : 1;
  if (na !== nb) return na - nb;
  return a.instance_id < b.instance_id ? -1 : a.instance_id > b.instance_id ? 1 : 0;
}
const splitId = (id: string): [string, number] => {
  const m = /^(.*)-(\d+)$/.exec(id);
  return m === null ? [id, 0] : [m[1] as string, Number(m[2])];
};
