/**
 * The real-token audit's worker thread (`token-audit.ts`): loads both vocabularies, then counts a
 * text in each, or in the one tokenizer a message names.
 */
import { parentPort } from 'node:worker_threads';
import type { Tokenizer } from '../types.js';
import { countTokens, realTokens } from './bpe.js';

// Loaded at once, before the first text arrives: that is the point of the thread.
realTokens('');
parentPort?.on('message', ({ id, text, tokenizer }: { id: number; text: string; tokenizer?: Tokenizer }) => {
  try {
    if (tokenizer !== undefined) parentPort?.postMessage({ id, count: countTokens(tokenizer, text) });
    else parentPort?.postMessage({ id, counts: realTokens(text) });
  } catch (e) {
    parentPort?.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
