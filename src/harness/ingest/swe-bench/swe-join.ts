/**
 * The corpora of `ingest --swe-bench ... --shard i/n`, joined into the corpus one ingest of the
 * whole selection writes, byte for byte: the cases in slice order with their files as they are,
 * each text stored again where a whole ingest first met it (the order in which the candidates
 * files first name its digest, case after case), and the manifest's counts summed, its skips
 * joined (swe-slice.ts). Slices of different selections, or of the same one read differently
 * (filters, budgets, tokenizer), are refused with the slice's manifest and field named.
 */
import path from 'node:path';
import { isPlainObject } from '../../../compiler/index.js';
import { BlobStore, BlobWriter, CORPUS_MANIFEST, readJsonFile, readTextFile } from '../../corpus/index.js';
import { InputError, UsageError } from '../../errors.js';
import { checkOut, guardOutput, jsonText, writeWholeAsync } from '../../output/index.js';
import { ingestedCorpus, sortedKeys } from '../ingested-corpus.js';
import type { SliceBlock } from './swe-slice.js';

type Json = Record<string, unknown>;

interface SliceFolder {
  readonly dir: string;
  /** Its manifest's file, which every refusal names. */
  readonly file: string;
  readonly manifest: Json;
  readonly ingest: Json;
  readonly shard: SliceBlock;
  /** Its cases, in its order: names checked to be file names, so no path leads out of a folder. */
  readonly fixtures: readonly string[];
}

/** A case's name as ingest writes it (an instance id): a file name, never a path. */
const CASE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/;
const isCount = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;

/** The first field of a slice's block that is not as `ingest --shard` writes it, or null. */
function shardProblem(shard: Json): string | null {
  for (const k of ['index', 'count', 'from', 'to', 'total']) if (!isCount(shard[k])) return k;
  if (typeof shard.selection !== 'string') return 'selection';
  const skips = shard.skips;
  if (
    !Array.isArray(skips) ||
    !skips.every((x) => Array.isArray(x) && x.length === 3 && x.every((y) => typeof y === 'string'))
  )
    return 'skips';
  return null;
}

/** What every slice of one ingest holds the same. */
const SAME = ['source', 'instances_file', 'records', 'filters', 'tokenizer', 'budgets', 'max_bytes'] as const;

const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);

function readSlice(dir: string): SliceFolder {
  const file = path.join(dir, CORPUS_MANIFEST);
  const manifest = readJsonFile(file);
  const ingest = isPlainObject(manifest) ? manifest.ingest : undefined;
  const shard = isPlainObject(ingest) ? ingest.shard : undefined;
  if (!isPlainObject(ingest) || ingest.source !== 'swe-bench' || !isPlainObject(shard))
    throw new InputError(file, 'ingest.shard: not a slice (`ingest --swe-bench ... --shard i/n` writes one)');
  const wrong = shardProblem(shard);
  if (wrong !== null) throw new InputError(file, `ingest.shard.${wrong}: not as ingest --shard writes it`);
  const m = manifest as Json;
  const fixtures = m.fixtures;
  if (!Array.isArray(fixtures) || !fixtures.every((f) => typeof f === 'string' && CASE_NAME.test(f)))
    throw new InputError(file, 'fixtures: not a list of case names (letters, digits, _ . -)');
  for (const key of ['budgets', 'expected', 'purpose'])
    if (!isPlainObject(m[key]) || !fixtures.every((f) => Object.hasOwn(m[key] as Json, f)))
      throw new InputError(file, `${key}: not an entry for every case of fixtures`);
  return { dir, file, manifest: m, ingest, shard: shard as unknown as SliceBlock, fixtures };
}

/** The slices in order, once each checked to be slices of one and the same ingest. */
function readSlices(dirs: readonly string[]): { slices: SliceFolder[]; policy: string } {
  const slices = dirs.map(readSlice).sort((a, b) => a.shard.index - b.shard.index);
  const first = slices[0];
  if (first === undefined) throw new UsageError('merge needs the slices');
  const policy = readTextFile(path.join(first.dir, 'policy.json'));
  for (const [k, s] of slices.entries()) {
    if (s.shard.count !== slices.length || s.shard.index !== k + 1)
      throw new InputError(
        s.file,
        `ingest.shard: ${s.shard.index}/${s.shard.count}: need each of 1..${s.shard.count} once`,
      );
    if (s.shard.from !== (slices[k - 1]?.shard.to ?? 0) || s.shard.total !== first.shard.total)
      throw new InputError(s.file, 'ingest.shard: the slices do not join up');
    if (s.shard.selection !== first.shard.selection)
      throw new InputError(s.file, `ingest.shard.selection: a slice of other instances than ${first.file}'s`);
    for (const key of SAME)
      if (!same(s.ingest[key], first.ingest[key]))
        throw new InputError(s.file, `ingest.${key}: not the same as ${first.file}'s`);
    if (readTextFile(path.join(s.dir, 'policy.json')) !== policy)
      throw new InputError(path.join(s.dir, 'policy.json'), `not the same policy as ${first.dir}'s`);
  }
  return { slices, policy };
}

const DIGESTS = /"content_sha256":"([0-9a-f]{64})"/g;

/** Counts summed field by field; any other value as the first record has it. */
function summed(records: readonly Json[]): Json {
  const out: Json = {};
  for (const r of records)
    for (const [k, v] of Object.entries(r))
      out[k] = typeof v === 'number' ? ((out[k] as number | undefined) ?? 0) + v : (out[k] ?? v);
  return out;
}

/** The `ingest` block of the whole: the slices' counts summed, their skips and instances joined. */
function wholeIngest(slices: readonly SliceFolder[]): Json {
  const at = (key: string) => slices.map((s) => (s.ingest[key] ?? {}) as Json);
  const repositories = new Map<string, Json[]>();
  for (const r of at('repositories'))
    for (const [name, v] of Object.entries(r))
      repositories.set(name, [...(repositories.get(name) ?? []), v as Json]);
  const skips = new Map<string, string>();
  for (const s of slices) for (const [p, blob, why] of s.shard.skips) skips.set(`${p}\n${blob}`, why);
  const skipped: Record<string, number> = {};
  for (const why of skips.values()) skipped[why] = (skipped[why] ?? 0) + 1;
  const { shard: _slice, ...first } = (slices[0] as SliceFolder).ingest;
  return {
    ...first,
    repositories: Object.fromEntries([...repositories].map(([name, rs]) => [name, summed(rs)])),
    skipped_instances: sortedKeys(Object.assign({}, ...at('skipped_instances'))),
    skipped_files: sortedKeys(skipped),
    gold: summed(at('gold')),
    instances: Object.fromEntries(
      slices.flatMap((s) => s.fixtures.map((f) => [f, (s.ingest.instances as Json)?.[f]])),
    ),
  };
}

/**
 * Join the slices in `dirs` (any order) into the corpus `out` (replaced only with `force`, and only
 * when ingest wrote it; never one of `inputs`); the number of cases.
 */
export async function joinSlices(
  dirs: readonly string[],
  out: string,
  o: { readonly force: boolean; readonly inputs: readonly string[] },
): Promise<number> {
  const { slices, policy } = readSlices(dirs);
  guardOutput({ path: out, kind: 'folder', option: '--corpus', inputs: [...dirs, ...o.inputs] });
  checkOut(out, o.force, {
    ours: ingestedCorpus,
    what: 'a corpus ingest wrote (its manifest has no ingest block)',
  });
  const fixtures: string[] = [];
  const byCase = { budgets: {}, expected: {}, purpose: {} } as Record<string, Json>;
  await writeWholeAsync(out, async (w) => {
    const blobs = new BlobWriter(w.partial);
    const met = new Set<string>();
    for (const s of slices) {
      const store = new BlobStore(s.dir);
      const names = s.fixtures;
      for (const name of names) {
        const candidates = readTextFile(path.join(s.dir, `${name}.candidates.json`));
        for (const [, digest] of candidates.matchAll(DIGESTS)) {
          if (met.has(digest as string)) continue;
          met.add(digest as string);
          const text = store.textOnce(digest as string);
          if (typeof text !== 'string')
            throw new InputError(path.join(s.dir, `${name}.candidates.json`), text.problem);
          blobs.put(text);
        }
        w.write(`${name}.candidates.json`, candidates);
        for (const file of [`${name}.request.json`, `ledger/${name}.truth.json`])
          w.write(file, readTextFile(path.join(s.dir, file)));
      }
      fixtures.push(...names);
      for (const [key, all] of Object.entries(byCase))
        for (const name of names) all[name] = (s.manifest[key] as Json)[name];
    }
    blobs.finish();
    w.write(
      CORPUS_MANIFEST,
      jsonText({
        fixture_set: path.basename(path.resolve(out)),
        ingest: wholeIngest(slices),
        fixtures,
        ...byCase,
      }),
    );
    w.write('policy.json', policy);
  });
  return fixtures.length;
}
