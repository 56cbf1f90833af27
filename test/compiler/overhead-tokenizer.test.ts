/**
 * `overhead_tokenizer` (docs/compiler.md §17.7): the header, decorations and separators priced by
 * a registered real tokenizer, every expected figure counted here with gpt-tokenizer itself; the
 * policy record unchanged to the byte when the field says `estimate`; an unknown or unregistered
 * name an error that names the field.
 */
import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it, vi } from 'vitest';
import {
  type CompilerPolicy,
  type ContextCandidate,
  compileContext,
  decorationCost,
  defaultPolicy,
  headerCost,
  policyToJSON,
  RecordError,
  readPolicy,
  registerTokenCounter,
  resultToJSON,
  separatorCost,
} from '../../src/compiler/index.js';
import { registerRealCounters } from '../../src/harness/corpus/real-tokens.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import { at, corpus } from '../helpers/corpus.js';
import { cand, policy, req } from '../helpers/pool.js';

const plain = { disallowedSpecial: new Set<string>() };
const COUNT = {
  o200k: (text: string) => o200kCount(text, plain),
  cl100k: (text: string) => cl100kCount(text, plain),
};
const TOKENIZERS = ['o200k', 'cl100k'] as const;

const thrown = (f: () => unknown): RecordError => {
  try {
    f();
  } catch (e) {
    if (e instanceof RecordError) return e;
    throw e;
  }
  throw new Error('did not throw');
};

describe('the policy record', () => {
  it('reads estimate, absent and null alike, and leaves the field out', () => {
    for (const raw of [{}, { overhead_tokenizer: 'estimate' }, { overhead_tokenizer: null }]) {
      const p = readPolicy(raw);
      expect(p).toEqual(defaultPolicy());
      expect('overhead_tokenizer' in p).toBe(false);
      expect(JSON.stringify(policyToJSON(p))).toBe(JSON.stringify(policyToJSON(defaultPolicy())));
    }
    // Written by hand as the reference's record, with the three extensions last: no fourth.
    expect(Object.keys(policyToJSON(defaultPolicy())).at(-1)).toBe('frame');
    expect(policyToJSON({ ...defaultPolicy(), overhead_tokenizer: 'estimate' })).toEqual(
      policyToJSON(defaultPolicy()),
    );
  });

  it('reads and writes a real tokenizer, last', () => {
    for (const t of TOKENIZERS) {
      const p = readPolicy({ overhead_tokenizer: t });
      expect(p.overhead_tokenizer).toBe(t);
      const json = policyToJSON(p);
      expect(Object.entries(json).at(-1)).toEqual(['overhead_tokenizer', t]);
      expect(readPolicy(json)).toEqual(p);
    }
  });

  it('refuses any other value, naming the field', () => {
    for (const v of ['p50k', 'O200K', 7, true]) {
      const e = thrown(() => readPolicy({ overhead_tokenizer: v }));
      expect(e.field).toBe('overhead_tokenizer');
      expect(e.message).toBe(`unsupported overhead_tokenizer: ${JSON.stringify(v)}`);
    }
  });
});

describe('without a registered counter', () => {
  it('compiling under a real tokenizer stops before deciding, naming the field', async () => {
    // A fresh compiler: the registry of this file's may already hold the tokenizers.
    vi.resetModules();
    const fresh = await import('../../src/compiler/index.js');
    const p = { ...fresh.defaultPolicy(), overhead_tokenizer: 'o200k' } as const;
    const e = (() => {
      try {
        fresh.compileContext(req(100), [cand('a')], p);
      } catch (x) {
        return x as InstanceType<typeof fresh.RecordError>;
      }
      throw new Error('did not throw');
    })();
    expect(e).toBeInstanceOf(fresh.RecordError);
    expect(e.field).toBe('overhead_tokenizer');
    expect(e.message).toBe(
      'overhead_tokenizer "o200k" has no token counter registered (registerTokenCounter)',
    );
    expect(() => fresh.separatorCost(p)).toThrow(/overhead_tokenizer "o200k"/);
    // The inputs are fine: what is missing belongs to the process, so the input checks (which
    // `ctxbench check` runs without compiling) pass.
    expect(() => fresh.checkCompilerInputs(req(100), [cand('a')], p)).not.toThrow();
    // The estimate needs nobody.
    expect(fresh.compileContext(req(100), [cand('a')], fresh.defaultPolicy()).bundle).not.toBeNull();
  });

  it('a name outside the vocabulary is unsupported, registered or not', () => {
    const p = { ...defaultPolicy(), overhead_tokenizer: 'p50k' } as unknown as CompilerPolicy;
    const e = thrown(() => compileContext(req(100), [cand('a')], p));
    expect([e.field, e.message]).toEqual(['overhead_tokenizer', 'unsupported overhead_tokenizer: "p50k"']);
  });

  it('registers only real tokenizers, and only counters that count', () => {
    expect(thrown(() => registerTokenCounter('estimate' as 'o200k', () => 1)).field).toBe(
      'overhead_tokenizer',
    );
    expect(thrown(() => registerTokenCounter('p50k' as 'o200k', () => 1)).message).toBe(
      'cannot register a token counter as "p50k" (need o200k or cl100k)',
    );
    registerTokenCounter('cl100k', (text) => text.length / 2);
    try {
      const p = policy({ overhead_tokenizer: 'cl100k' });
      expect(thrown(() => separatorCost(p)).message).toBe(
        'the cl100k token counter returned 2.5, not a count',
      );
    } finally {
      registerTokenCounter('cl100k', COUNT.cl100k);
    }
  });

  it('remembers short texts only: a long request id is counted again, never kept (issue 47)', () => {
    // A warm strategy process prices call after call: what its counter remembers must not grow
    // with the ids its callers choose.
    const asked: number[] = [];
    registerTokenCounter('cl100k', (text) => {
      asked.push(text.length);
      return 1;
    });
    try {
      const p = policy({ overhead_tokenizer: 'cl100k' });
      const [short, long] = [
        req(100, { request_id: 'r'.repeat(900) }),
        req(100, { request_id: 'r'.repeat(1100) }),
      ];
      for (const r of [short, short, long, long]) headerCost(r, p);
      const header = (r: typeof short) => `${r.request_id} ${r.task_id} ${p.policy_version}`.length;
      expect(asked).toEqual([header(short), header(long), header(long)]);
    } finally {
      registerTokenCounter('cl100k', COUNT.cl100k);
    }
  });
});

/** What a bundle's rendered cost is under a counter, by docs/compiler.md §3 and §11.2. */
function expectedCost(
  items: readonly ContextCandidate[],
  request: { request_id: string; task_id: string },
  p: CompilerPolicy,
  count: (text: string) => number,
): number {
  const header = count(`${request.request_id} ${request.task_id} ${p.policy_version}`);
  const decorations = items.reduce((n, c) => n + c.token_count + count(`${c.source_kind} ${c.kind}`), 0);
  return header + decorations + Math.max(0, items.length - 1) * count('\n---\n');
}

describe('with the real tokenizers registered', () => {
  registerRealCounters();

  it.each(TOKENIZERS)('%s prices the header, each decoration and the separator', (t) => {
    const p = policy({ overhead_tokenizer: t });
    const r = req(100, { request_id: 'heterogeneous-basic', task_id: 'refactor the parser' });
    expect(separatorCost(p)).toBe(COUNT[t]('\n---\n'));
    expect(headerCost(r, p)).toBe(COUNT[t]('heterogeneous-basic refactor the parser compiler-policy-v1'));
    const c = cand('a', { source_kind: 'repository-file', kind: 'code/typescript' });
    expect(decorationCost(c, p)).toBe(COUNT[t]('repository-file code/typescript'));
    // These strings are where the tokenizers and the estimate part: the test tests something.
    expect(headerCost(r, p)).not.toBe(headerCost(r, policy()));
    expect(decorationCost(c, p)).not.toBe(decorationCost(c, policy()));
  });

  it.each(TOKENIZERS)(
    'under %s every reference bundle costs its declared counts plus the real overhead',
    (t) => {
      let bundles = 0;
      for (const kase of corpus().cases)
        for (const budget of BUDGETS) {
          const { request, candidates } = at(kase.name, budget);
          const p = { ...corpus().policy, overhead_tokenizer: t };
          const out = compileContext(request, candidates, p);
          if (out.bundle === null) continue;
          bundles++;
          const byId = new Map(candidates.map((c) => [c.candidate_id, c]));
          const items = out.bundle.items.map((i) => byId.get(i.id) as ContextCandidate);
          for (const [k, item] of out.bundle.items.entries()) {
            const c = items[k] as ContextCandidate;
            expect(item.token_count).toBe(c.token_count + COUNT[t](`${c.source_kind} ${c.kind}`));
          }
          expect(out.result.bundle_tokens, `${kase.name}/${budget}`).toBe(
            expectedCost(items, request, p, COUNT[t]),
          );
          expect(out.result.bundle_tokens).toBeLessThanOrEqual(request.usable_token_budget);
        }
      expect(bundles).toBeGreaterThan(30);
    },
  );

  it('prices the v2 frame with the tokenizer too, everywhere the header is charged', () => {
    const { request, candidates } = at('heterogeneous-basic', 'roomy');
    const p = policy({ overhead_tokenizer: 'o200k', frame: 'v2' });
    const frame = [
      '[CONTEXT BUNDLE TAG]',
      `id: ${request.request_id}-bundle`,
      'items: N',
      '---TAG',
      '[/CONTEXT BUNDLE TAG]',
      '',
    ].join('\n');
    expect(headerCost(request, p)).toBe(
      COUNT.o200k(`${request.request_id} ${request.task_id} compiler-policy-v1`) + COUNT.o200k(frame),
    );
    const out = compileContext(request, candidates, p);
    expect(out.bundle).not.toBeNull();
  });

  it.each(TOKENIZERS)('under %s the fast and the reference engines agree, in both pricings', (t) => {
    for (const pricing of ['declared', 'rendered'] as const)
      for (const kase of corpus().cases)
        for (const budget of BUDGETS) {
          const { request, candidates } = at(kase.name, budget);
          const p = { ...corpus().policy, overhead_tokenizer: t, pricing };
          const fast = compileContext(request, candidates, p);
          const reference = compileContext(request, candidates, p, { engine: 'reference' });
          expect(resultToJSON(fast.result), `${kase.name}/${budget}/${pricing}`).toEqual(
            resultToJSON(reference.result),
          );
        }
  });
});
