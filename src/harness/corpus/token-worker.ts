/**
 * The real-token audit's worker thread (`token-audit.ts`): counts a text in each vocabulary, or in
 * the one tokenizer a message names, each vocabulary loaded when it first counts; a `warm`
 * message loads both at once, before the first text of an audit arrives.
 */
import { parentPort } from 'node:worker_threads';
import type { Tokenizer } from '../types.js';
import { countTokens, loadedVocabularies, realTokens } from './bpe.js';

type Asked =
  | { readonly warm: true }
  | { readonly id: number; readonly loaded: true }
  | { readonly id: number; readonly text: string; readonly tokenizer?: Tokenizer };

parentPort?.on('message', (m: Asked) => {
  // Loading, beside whatever the main thread does meanwhile: that is the point of the thread.
  if ('warm' in m) return void realTokens('');
  if ('loaded' in m) return void parentPort?.postMessage({ id: m.id, loaded: loadedVocabularies() });
  const { id, text, tokenizer } = m;
  try {
    if (tokenizer !== undefined) parentPort?.postMessage({ id, count: countTokens(tokenizer, text) });
    else parentPort?.postMessage({ id, counts: realTokens(text) });
  } catch (e) {
    parentPort?.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
