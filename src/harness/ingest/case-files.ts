/**
 * An ingested corpus written case by case: each case's request, pool and truth file, its budgets
 * and expected outcomes, and at the end the manifest and the policy. Every content of 96 bytes or
 * more is a blob (docs/formats.md), written the first time a case holds it: a repository's file
 * version held by a hundred cases is on disk once.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  type CompilerPolicy,
  type ContextCandidate,
  type ContextRequest,
  policyToJSON,
  renderedCost,
  requestToJSON,
} from '../../compiler/index.js';
import { BlobWriter, CORPUS_MANIFEST } from '../corpus/index.js';
import { type FolderWriter, jsonText } from '../output/index.js';
import { BUDGETS, INGESTED_TASK_ID } from '../vocabulary.js';
import { CandidateWriter } from './candidate-json.js';
import { sortedKeys } from './ingested-corpus.js';

/**
 * Contents shorter than this stay inline: naming a blob takes 83 characters of the line (and a line
 * of the index), about what a short reference form's text takes.
 */
export const BLOB_MIN_BYTES = 96;

export interface Truth {
  readonly eval_class: string;
  readonly min_representation: string;
}

/** One case as it is written. */
export interface IngestedCase {
  readonly name: string;
  readonly request: ContextRequest;
  readonly pool: readonly ContextCandidate[];
  /** The ledger's classes by content identity (sorted when written). */
  readonly truth: Readonly<Record<string, Truth>>;
  /** More keys of the truth file, after `identity_truth`. */
  readonly truthMore?: Readonly<Record<string, unknown>>;
  readonly purpose: string;
}

type Outcome = { readonly success: boolean; readonly reason: string | null };

/** The bytes a corpus takes, and the distinct text it holds. */
export interface CorpusSize {
  /** Every file's bytes. */
  readonly bytes: number;
  /** The blocks the files take on disk, where the system says (`stat`'s blocks). */
  readonly allocated: number;
  /** The UTF-8 bytes of every distinct content, each once (tasks included). */
  readonly uniqueText: number;
}

export class CaseFiles {
  private readonly w: FolderWriter;
  private readonly policy: CompilerPolicy;
  private readonly levels: Readonly<Record<(typeof BUDGETS)[number], number>>;
  private readonly json: CandidateWriter;
  readonly names: string[] = [];
  private readonly budgets: Record<string, Record<string, number>> = {};
  private readonly expected: Record<string, Record<string, Outcome>> = {};
  private readonly purpose: Record<string, string> = {};
  private readonly blobs: BlobWriter;
  /** The inline texts met so far, and their bytes: the distinct text beside the blobs'. */
  private readonly inline = new Set<string>();
  private inlineBytes = 0;

  constructor(w: FolderWriter, policy: CompilerPolicy, budgets: readonly [number, number, number]) {
    this.w = w;
    this.policy = policy;
    const [tight, medium, roomy] = budgets;
    this.levels = { tight, medium, roomy };
    this.json = new CandidateWriter((content) => this.store(content));
    this.blobs = new BlobWriter(w.partial);
  }

  /** The UTF-8 bytes of every distinct content written, each once. */
  get uniqueText(): number {
    return this.blobs.bytes + this.inlineBytes;
  }

  /** The digest of a content kept as a blob (written the first time), or null for one kept inline. */
  private store(content: string): string | null {
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes >= BLOB_MIN_BYTES) return this.blobs.put(content);
    if (!this.inline.has(content)) {
      this.inline.add(content);
      this.inlineBytes += bytes;
    }
    return null;
  }

  /** A case's files, and its budgets and expected outcomes for the manifest. */
  add(c: IngestedCase): void {
    const { name, request, pool } = c;
    this.names.push(name);
    this.w.write(`${name}.request.json`, jsonText(requestToJSON(request)));
    const out = this.w.linesInBackground(`${name}.candidates.json`);
    out.add('{"candidates": [');
    for (const [k, candidate] of pool.entries())
      out.add(`${this.json.line(candidate)}${k < pool.length - 1 ? ',' : ''}`);
    out.add(']}');
    out.close();
    // A case whose task alone overruns a budget expects a refusal there.
    const taskOnly = pool.filter((p) => p.candidate_id === INGESTED_TASK_ID);
    const expected = Object.fromEntries(
      BUDGETS.map((b) => {
        const at = { ...request, usable_token_budget: this.levels[b] };
        const fits = renderedCost(taskOnly, at, this.policy) <= this.levels[b];
        return [
          b,
          fits ? { success: true, reason: null } : { success: false, reason: 'INSUFFICIENT_BUDGET' },
        ];
      }),
    ) as Record<string, Outcome>;
    this.budgets[name] = { ...this.levels };
    this.expected[name] = expected;
    this.purpose[name] = c.purpose;
    this.w.write(
      `ledger/${name}.truth.json`,
      jsonText({ expected: expected.medium, identity_truth: sortedKeys(c.truth), ...c.truthMore }),
    );
  }

  /** The cases after this hold none of the files before (another repository): nothing kept for them. */
  nextRepository(): void {
    this.json.forget();
  }

  /** The manifest (`top`'s keys first, then the cases'), the policy and the blobs' index. */
  finish(top: Readonly<Record<string, unknown>>): void {
    this.blobs.finish();
    this.w.write(
      CORPUS_MANIFEST,
      jsonText({
        ...top,
        fixtures: this.names,
        budgets: this.budgets,
        expected: this.expected,
        purpose: this.purpose,
      }),
    );
    this.w.write('policy.json', jsonText(policyToJSON(this.policy)));
  }
}

/** What a folder takes: its files' bytes and the blocks they occupy. */
export function folderSize(dir: string): Omit<CorpusSize, 'uniqueText'> {
  let bytes = 0;
  let allocated = 0;
  for (const f of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const s = fs.lstatSync(path.join(dir, f));
    if (!s.isFile()) continue;
    bytes += s.size;
    allocated += s.blocks * 512;
  }
  return { bytes, allocated };
}
