/**
 * Real token counts of text, by OpenAI's BPE vocabularies shipped inside gpt-tokenizer (offline):
 * what a model would actually be sent. Nothing here registers anything, so a worker thread
 * (`token-audit.ts`) can count with it alone.
 */
import { createRequire } from 'node:module';
import type { RealTokens, Tokenizer } from '../types.js';
import { TOKENIZERS } from '../vocabulary.js';

type Encoding = typeof import('gpt-tokenizer/encoding/o200k_base');

// Loading a vocabulary takes a large part of a second: each is loaded when it first counts, not
// when this module is imported, so registering the counters costs nothing until one is used.
// `require` is what can load it at that moment, inside a synchronous count.
const load = createRequire(import.meta.url);
const encodings = new Map<Tokenizer, Encoding>();

// Content is data: a special token's spelling (`<|endoftext|>`) is counted as the text it is,
// never refused and never read as a control token.
const PLAIN = { disallowedSpecial: new Set<string>() };

/** `text` in one tokenizer's tokens. */
export function countTokens(tokenizer: Tokenizer, text: string): number {
  let encoding = encodings.get(tokenizer);
  if (encoding === undefined) {
    encoding = load(`gpt-tokenizer/encoding/${tokenizer}_base`) as Encoding;
    encodings.set(tokenizer, encoding);
  }
  return encoding.countTokens(text, PLAIN);
}

/** `text` in every real tokenizer's tokens, keyed in `TOKENIZERS` order. */
export const realTokens = (text: string): RealTokens =>
  Object.fromEntries(TOKENIZERS.map((t) => [t, countTokens(t, text)])) as Record<Tokenizer, number>;
