import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  trimMessages,
} from '@langchain/core/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costOf } from '../../src/harness/kit/index.js';
import langchainTrim, { messagesOf, runningCost, trimLast } from '../../strategies/langchain-trim.js';
import { randomCase, runs } from '../helpers/arbitrary.js';
import { asBundle, asRefusal, measured } from '../helpers/compiled.js';
import { realTrim } from '../helpers/langchain.js';
import { admittedOf as admitted, cand, strategyInputAt as input, policy } from '../helpers/pool.js';
import { referenceInputs } from '../helpers/reference-inputs.js';

const SEED = 2020;

describe("trimMessages' own example: the last 30 tokens, system message included", () => {
  // @langchain/core 1.4.0, dist/messages/transformers.d.ts, the `trimMessages` doc comment: every
  // string message counts 3 + 4 + 3 = 10, a message of n blocks 3 + 4n + 3.
  const text = 'This is a 4 token text. The full message is 10 tokens.';
  const messages = [
    new SystemMessage(text),
    new HumanMessage({ content: text, id: 'first' }),
    new AIMessage({
      content: [
        { type: 'text', text: 'This is the FIRST 4 token block.' },
        { type: 'text', text: 'This is the SECOND 4 token block.' },
      ],
      id: 'second',
    }),
    new HumanMessage({ content: text, id: 'third' }),
    new AIMessage({ content: text, id: 'fourth' }),
  ];
  const dummyTokenCounter = (ms: readonly BaseMessage[]) =>
    ms.reduce((n, m) => n + 3 + (Array.isArray(m.content) ? m.content.length * 4 : 4) + 3, 0);
  const documented = ['system', 'third', 'fourth'];
  const kinds = (ms: readonly BaseMessage[]) => ms.map((m) => (m.getType() === 'system' ? 'system' : m.id));

  it('is what the package returns', async () => {
    const out = await trimMessages(messages, {
      maxTokens: 30,
      includeSystem: true,
      tokenCounter: (ms) => dummyTokenCounter(ms),
      strategy: 'last',
    });
    expect(kinds(out)).toEqual(documented);
  });

  it('is what the port returns', () => {
    const out = trimLast(messages, {
      maxTokens: 30,
      includeSystem: true,
      tokenCounter: dummyTokenCounter,
      isSystem: (m) => m.getType() === 'system',
    });
    expect(kinds(out)).toEqual(documented);
  });
});

describe('langchain-trim: the system message, the documents a retriever returned, the task last; the tail that fits', () => {
  // each item renders 13 (10 + decoration 3), a separator 1, the header 4: n items cost 14n + 3
  const sys = cand('z-sys', { order_role: 'instruction', kind: 'instruction' });
  const pool = [
    cand('a-tool', { order_role: 'tool' }),
    cand('e1'),
    cand('e2'),
    cand('e3'),
    sys,
    cand('t-task', { order_role: 'task' }),
  ];
  // messages: z-sys (the system message), the documents by relevance, the least relevant first
  // (all 0.5: by id reversed, e3, e2, e1, a-tool), t-task last

  it('keeps the system message, the task and the documents nearest it', () => {
    expect(admitted(langchainTrim.assemble(input(45, pool)))).toEqual(['z-sys', 'a-tool', 't-task']); // 3 items: 45
    expect(admitted(langchainTrim.assemble(input(44, pool)))).toEqual(['z-sys', 't-task']); // 4 items would be 59
    expect(admitted(langchainTrim.assemble(input(59, pool)))).toEqual(['z-sys', 'e1', 'a-tool', 't-task']);
  });

  // trim_messages' reference documentation (https://reference.langchain.com/python/langchain-core/messages/utils/trim_messages,
  // and trimMessages' for JavaScript) sets strategy "last" to keep the recent messages and drop the
  // old: a user trimming retrieved documents with it puts the most relevant where the recent go.
  it('hands the documents in least relevant first, as a LangChain user keeping the recent would, so the tail keeps the most relevant', () => {
    const ranked = pool.map((c) =>
      c.candidate_id === 'e1'
        ? { ...c, relevance: 0.9 }
        : c.candidate_id === 'e3'
          ? { ...c, relevance: 0.1 }
          : c,
    );
    // documents: e3 (0.1), e2 and a-tool (0.5, by id reversed), e1 (0.9): the last before the task is e1
    expect(admitted(langchainTrim.assemble(input(45, ranked)))).toEqual(['z-sys', 'e1', 't-task']);
    expect(admitted(langchainTrim.assemble(input(73, ranked)))).toEqual([
      'z-sys',
      'e2',
      'a-tool',
      'e1',
      't-task',
    ]);
  });

  it('stops at the first message that does not fit, where topk would skip it', () => {
    const big = [
      ...pool.filter((c) => c.candidate_id !== 'e3'),
      cand('e3', { token_count: 100, relevance: 0.9 }),
    ];
    // e3 is the most relevant, next to the task: z-sys + t-task = 31; + e3 (103 + 1) = 135 > 80:
    // trimMessages stops, although e2 (45) fits
    expect(admitted(langchainTrim.assemble(input(80, big)))).toEqual(['z-sys', 't-task']);
  });

  it('keeps nothing when the system message alone does not fit, and refuses under the header', () => {
    // z-sys alone renders 17
    expect(asBundle(measured(langchainTrim, input(16, pool))).admitted).toEqual([]);
    expect(asRefusal(measured(langchainTrim, input(3, pool))).reason).toBe('INSUFFICIENT_BUDGET');
  });

  it('treats no message as the system one when the pool has no instruction', () => {
    const noSys = pool.filter((c) => c !== sys);
    // messages e3, e2, e1, a-tool, t-task: the last three fit in 45
    expect(admitted(langchainTrim.assemble(input(45, noSys)))).toEqual(['e1', 'a-tool', 't-task']);
  });

  it('sees only default forms, as the baselines do', () => {
    const alt = cand('e3-ref', { content_identity: 'e3', is_default_form: false, token_count: 1 });
    expect(admitted(langchainTrim.assemble(input(200, [...pool, alt])))).not.toContain('e3-ref');
  });
});

describe('the port decides as trimMessages itself does', () => {
  const port = (i: Parameters<typeof realTrim>[0]) => {
    const s = langchainTrim.assemble(i);
    return 'refusal' in s ? [] : [...s.admitted];
  };
  // upstream answers [undefined] when not even the system message fits; the port keeps nothing
  const real = async (i: Parameters<typeof realTrim>[0]) =>
    (await realTrim(i)).filter((id): id is string => id !== undefined);

  it('on every reference case and budget and on generated agent pools of 200', async () => {
    for (const { label, input: i } of referenceInputs()) expect(port(i), label).toEqual(await real(i));
  });

  it(`prices any list of messages as costOf does, asked in any order (seed ${SEED})`, () => {
    fc.assert(
      fc.property(
        randomCase(),
        fc.array(fc.array(fc.nat(40), { maxLength: 12 }), { minLength: 1, maxLength: 8 }),
        ({ request, candidates }, asks) => {
          const i = { request, candidates, policy: policy(), budget: request.usable_token_budget };
          const messages = messagesOf(candidates, i.policy.order_roles);
          const count = runningCost(i);
          // Lists that share starts and lists that part from the last one, as indexes into the pool.
          for (const ask of asks) {
            const ms = ask.flatMap((k) => (messages.length === 0 ? [] : [messages[k % messages.length]!]));
            for (const len of [ms.length, Math.floor(ms.length / 2), ms.length])
              expect(count(ms.slice(0, len))).toBe(costOf(ms.slice(0, len).flat(), i));
          }
        },
      ),
      { seed: SEED, numRuns: runs(100, 1000) },
    );
  });

  it(`on random pools (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(randomCase(), async ({ request, candidates }) => {
        const i = { request, candidates, policy: policy(), budget: request.usable_token_budget };
        expect(port(i)).toEqual(await real(i));
      }),
      { seed: SEED, numRuns: runs(200, 3000) },
    );
  });
});

describe('langchain-trim on every reference input', () => {
  it('never errs nor overruns, lays out in message order, and answers the same twice', () => {
    for (const { label, input: i } of referenceInputs()) {
      const first = langchainTrim.assemble(i);
      expect(JSON.stringify(langchainTrim.assemble(i)), label).toBe(JSON.stringify(first));
      const out = measured(langchainTrim, i);
      expect(out.outcome, label).not.toBe('error');
      if (out.outcome !== 'bundle') continue;
      expect(out.renderedTokens, label).toBeLessThanOrEqual(i.budget);
      if ('refusal' in first) continue;
      expect(first.layout, label).toBe('own');
      const order = messagesOf(i.candidates, i.policy.order_roles).flatMap((m) =>
        m.map((c) => c.candidate_id),
      );
      const kept = new Set(first.admitted);
      expect(first.admitted, label).toEqual(order.filter((id) => kept.has(id)));
    }
  });
});
