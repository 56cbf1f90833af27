/**
 * A bundle of the reference corpus priced under a real tokenizer by docs/compiler.md §3 and
 * §11.2, counted here with gpt-tokenizer, independently of the code.
 */
import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base';
import { corpus } from './corpus.js';

/** Special-token spellings counted as the plain text they are. */
const plain = { disallowedSpecial: new Set<string>() };
export const COUNT = {
  o200k: (text: string) => o200kCount(text, plain),
  cl100k: (text: string) => cl100kCount(text, plain),
};
export const byId = new Map(
  corpus().cases.flatMap((k) => k.candidates.map((c) => [`${k.name}/${c.candidate_id}`, c])),
);

/** A bundle's rendered cost by docs/compiler.md §3 and §11.2, under a real tokenizer. */
export function realCost(
  kase: string,
  ids: readonly string[],
  req: { request_id: string; task_id: string },
  t: 'o200k' | 'cl100k',
) {
  const count = COUNT[t];
  let total = count(`${req.request_id} ${req.task_id} compiler-policy-v1`);
  for (const id of ids) {
    const c = byId.get(`${kase}/${id}`);
    if (c === undefined) throw new Error(`no candidate ${kase}/${id}`);
    total += c.token_count + count(`${c.source_kind} ${c.kind}`);
  }
  return total + Math.max(0, ids.length - 1) * count('\n---\n');
}
