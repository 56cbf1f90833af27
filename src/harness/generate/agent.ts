/**
 * The `agent` shape: a coding agent's context. Two standing instructions and the task
 * (MANDATORY); a handful of tool definitions; many source files, each in full, as a summary and
 * as a reference that needs the read-file tool, a few of them the files the task is about
 * (REQUIRED, some with a floor that rules the bare reference out), some summaries out of date;
 * memories of mixed freshness; web snippets, relevant-looking and often from untrusted pages
 * (failing authority). The ledger: the task's files are must, closely related files should, stale
 * memories distractors, untrusted snippets harmful. Same seed, same bytes.
 */
import seedrandom from 'seedrandom';
import type { ContextCandidate, RequirementClass } from '../../compiler/index.js';
import type { EvalClass, IdentityTruth } from '../types.js';
import { between, candidate, pick, type Rng, round2, sentence } from './contents.js';
import { finishCase, type GeneratedCase } from './finish.js';

const TOOLS = ['read-file', 'search-code', 'run-tests', 'edit-file', 'list-dir', 'git-diff'];
const TOPICS = Array.from({ length: 12 }, (_, k) => `topic-${String(k).padStart(2, '0')}`);

interface Pool {
  readonly rng: Rng;
  readonly candidates: ContextCandidate[];
  readonly truth: Record<string, IdentityTruth>;
}

const add = (p: Pool, c: ContextCandidate, truth: EvalClass, min = c.representation_id) => {
  p.candidates.push(c);
  p.truth[c.content_identity] ??= { eval_class: truth, min_representation: min };
};

/** Instructions, the task and the tools: the part every agent context has. */
function standing(p: Pool, tools: number): void {
  const { rng } = p;
  const mandatory = { requirement: 'MANDATORY' as const, relevance: 1, is_default_form: true };
  for (const name of ['system', 'conventions']) {
    const id = `instr-${name}`;
    add(
      p,
      candidate(id, {
        ...mandatory,
        content_identity: id,
        order_role: 'instruction',
        kind: 'instruction',
        content: sentence(rng, 30),
        token_count: between(rng, 80, 300),
      }),
      'must',
    );
  }
  add(
    p,
    candidate('task', {
      ...mandatory,
      content_identity: 'task',
      order_role: 'task',
      kind: 'task',
      content: sentence(rng, 25),
      token_count: between(rng, 40, 160),
    }),
    'must',
  );
  for (const name of TOOLS.slice(0, tools)) {
    const id = `tool-${name}`;
    const c = candidate(id, {
      content_identity: id,
      requirement: 'PREFERRED',
      order_role: 'tool',
      kind: 'tool',
      content: sentence(rng, 30),
      token_count: between(rng, 90, 350),
      relevance: round2(0.2 + 0.3 * rng()),
      is_default_form: true,
    });
    add(p, c, 'optional');
  }
}

/** A source file in three forms; `named` files are the ones the task is about. */
function file(p: Pool, k: number, named: boolean): void {
  const { rng } = p;
  const identity = `file-${String(k).padStart(4, '0')}`;
  const full = between(rng, 250, 3000);
  const relevance = named ? round2(0.8 + 0.2 * rng()) : round2(rng());
  const requirement: RequirementClass = named ? 'REQUIRED' : relevance >= 0.6 ? 'PREFERRED' : 'DISCRETIONARY';
  const truth: EvalClass = named
    ? 'must'
    : relevance >= 0.6
      ? 'should'
      : relevance >= 0.25
        ? 'optional'
        : 'distractor';
  // Half the task's files need at least their summary: a bare reference will not do.
  const floor = named && rng() < 0.5 ? 2 : 0;
  const stale = rng() < 0.12;
  const keys = rng() < 0.5 ? [pick(rng, TOPICS)] : [];
  const forms = [
    { rep: 'full', rank: 3, tokens: full, depends: [] as string[] },
    { rep: 'summary', rank: 2, tokens: Math.max(20, Math.round(full * 0.12)), depends: [] as string[] },
    { rep: 'reference', rank: 0, tokens: between(rng, 12, 30), depends: ['tool-read-file'] },
  ];
  const defaultRep = full > 900 ? 'summary' : 'full';
  for (const f of forms) {
    const outOfDate = stale && f.rep === 'summary';
    add(
      p,
      candidate(`${identity}-${f.rep}`, {
        content_identity: identity,
        representation_id: f.rep,
        form_rank: f.rank,
        min_rank: floor,
        kind: 'file',
        source_kind: 'repository',
        content: sentence(rng, Math.min(45, 6 + Math.round(f.tokens / 40))),
        token_count: f.tokens,
        requirement,
        order_role: named ? 'state' : 'evidence',
        freshness_eligible: !outOfDate,
        freshness_reason: outOfDate ? 'freshness: summary older than the file' : 'validated current',
        depends_on: f.depends,
        coverage_keys: keys,
        relevance: round2(Math.max(0, relevance - (3 - f.rank) * 0.05)),
        is_default_form: f.rep === defaultRep,
      }),
      truth,
      stale ? 'full' : 'summary',
    );
  }
}

/** A memory, about a third of them stale, or a web snippet, half of them from untrusted pages. */
function note(p: Pool, k: number, kind: 'memory' | 'web'): void {
  const { rng } = p;
  const id = `${kind}-${String(k).padStart(4, '0')}`;
  const failing = rng() < (kind === 'memory' ? 0.35 : 0.5);
  const relevance = round2(kind === 'web' ? 0.55 + 0.4 * rng() : rng());
  const truth: EvalClass = failing
    ? kind === 'web'
      ? 'harmful'
      : 'distractor'
    : relevance >= 0.6
      ? 'should'
      : 'optional';
  const c = candidate(id, {
    content_identity: id,
    kind,
    source_kind: kind === 'web' ? 'web-search' : 'agent-memory',
    content: sentence(rng, 20),
    token_count: between(rng, kind === 'web' ? 120 : 60, kind === 'web' ? 600 : 300),
    order_role: kind === 'web' ? 'evidence' : 'support',
    freshness_eligible: !(failing && kind === 'memory'),
    freshness_reason:
      failing && kind === 'memory' ? 'freshness: superseded by a later session' : 'validated current',
    authority_eligible: !(failing && kind === 'web'),
    authority_reason: failing && kind === 'web' ? 'authority: untrusted web page' : 'data',
    coverage_keys: rng() < 0.4 ? [pick(rng, TOPICS)] : [],
    relevance,
    is_default_form: true,
  });
  add(p, c, truth);
}

/** One agent context of about `size` candidates. */
export function generateAgentCase(seed: string, size: number, name: string): GeneratedCase {
  const p: Pool = { rng: seedrandom(seed), candidates: [], truth: {} };
  const tools = Math.min(TOOLS.length, Math.max(2, Math.round(size / 40)));
  standing(p, tools);
  // The task is about a few files, however large the repository.
  const named = Math.min(6, Math.max(1, Math.round(size / 60)));
  let files = 0;
  let notes = 0;
  while (p.candidates.length < size) {
    const roll = p.rng();
    if (roll < 0.6 || files < named) file(p, files++, files <= named);
    else note(p, notes++, roll < 0.85 ? 'memory' : 'web');
  }
  p.candidates.splice(size);
  return finishCase(name, p.candidates, p.truth);
}
