/**
 * Real token counts of rendered text, by OpenAI's BPE vocabularies shipped inside gpt-tokenizer
 * (offline). The ruler prices declared counts plus a word estimate; these say what a model would
 * actually be sent. Loading the vocabularies takes a large part of a second, so only what counts
 * tokens imports this module.
 */
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import type { RealTokens } from '../types.js';

// Content is data: a special token's spelling (`<|endoftext|>`) is counted as the text it is,
// never refused and never read as a control token.
const PLAIN = { disallowedSpecial: new Set<string>() };

export const realTokens = (text: string): RealTokens => ({
  o200k: o200k(text, PLAIN),
  cl100k: cl100k(text, PLAIN),
});
