/**
 * The real-token audit off the main thread. Loading both BPE vocabularies costs most of a second
 * of CPU; a worker thread started when an audited command begins (`warmTokenAudit`) loads them
 * while this thread reads its inputs and compiles, and then counts each rendered text it is sent.
 * A command that only counts in one tokenizer beside its work (ingest) loads that one alone, when
 * it first counts; one that never counts loads none. The counts are the same
 * numbers `realTokens` gives in this thread (the same module counts them); only when they are
 * ready differs. Run from the sources (the tests), where a worker could not load TypeScript, the
 * audit counts in this thread. A thread that stops (it ran out of memory, say) fails the counts it
 * was asked, and the next count starts another: a long-lived process (an MCP runner) is never
 * left with a counter that no longer answers.
 */
import { Worker } from 'node:worker_threads';
import type { RealTokens, Tokenizer } from '../types.js';
import { countTokens, loadedVocabularies, realTokens } from './bpe.js';

const FROM_SOURCE = import.meta.url.endsWith('.ts');

interface Reply {
  readonly id: number;
  readonly counts?: RealTokens;
  readonly count?: number;
  readonly loaded?: Tokenizer[];
  readonly error?: string;
}

interface Waiting {
  readonly resolve: (c: RealTokens | number | Tokenizer[]) => void;
  readonly reject: (e: Error) => void;
}

class TokenAudit {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiting>();
  private next = 0;
  /** Stopped or failed: it answers nothing more, and the next count starts another thread. */
  dead = false;

  constructor() {
    this.worker = new Worker(new URL('./token-worker.js', import.meta.url));
    this.worker.on('message', (r: Reply) => {
      const w = this.waiting.get(r.id);
      this.waiting.delete(r.id);
      if (r.counts !== undefined) w?.resolve(r.counts);
      else if (r.count !== undefined) w?.resolve(r.count);
      else if (r.loaded !== undefined) w?.resolve(r.loaded);
      else w?.reject(new Error(`counting real tokens failed: ${r.error}`));
      this.idle();
    });
    this.worker.on('error', (e) => this.fail(e));
    this.worker.on('exit', (code) => this.fail(new Error(`the token counter stopped with code ${code}`)));
    this.idle();
  }

  count(text: string, tokenizer?: Tokenizer): Promise<RealTokens | number> {
    return this.asked((id) => (tokenizer === undefined ? { id, text } : { id, text, tokenizer })) as Promise<
      RealTokens | number
    >;
  }

  /** The vocabularies the worker has loaded so far. */
  loaded(): Promise<Tokenizer[]> {
    return this.asked((id) => ({ id, loaded: true })) as Promise<Tokenizer[]>;
  }

  private asked(message: (id: number) => object): Promise<RealTokens | number | Tokenizer[]> {
    const id = this.next++;
    // Held while an answer is awaited, so the process waits for it; let go when idle, so an
    // unused counter never keeps a finished command alive.
    this.worker.ref();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage(message(id));
    });
  }

  /** Load both vocabularies now, before the first text to audit. */
  warm(): void {
    this.worker.postMessage({ warm: true });
  }

  private idle(): void {
    if (this.waiting.size === 0) this.worker.unref();
  }

  /** Stop the thread, as a crash would. */
  stop(): Promise<number> {
    return this.worker.terminate();
  }

  private fail(e: Error): void {
    this.dead = true;
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }
}

let audit: TokenAudit | undefined;

/** The audit's thread: the one running, or a new one when there is none or it stopped. */
function counter(): TokenAudit {
  if (audit === undefined || audit.dead) audit = new TokenAudit();
  return audit;
}

/** Start loading the vocabularies now, beside whatever this thread does next. */
export function warmTokenAudit(): void {
  if (FROM_SOURCE) return;
  counter().warm();
}

/**
 * Stop the audit's thread as a crash would (what it was asked fails); the next count starts
 * another. For the tests of that replacement.
 */
export async function stopTokenAudit(): Promise<void> {
  await audit?.stop();
}

/** `text` in every real tokenizer's tokens, counted by the worker once it has loaded. */
export function auditTokens(text: string): Promise<RealTokens> {
  if (FROM_SOURCE) return Promise.resolve(realTokens(text));
  return counter().count(text) as Promise<RealTokens>;
}

/**
 * `text` in one tokenizer's tokens, counted by the same worker: `countTokens`'s number, while this
 * thread does other work (ingest parses and indexes the next versions meanwhile).
 */
export function countTokensBeside(tokenizer: Tokenizer, text: string): Promise<number> {
  if (FROM_SOURCE) return Promise.resolve(countTokens(tokenizer, text));
  return counter().count(text, tokenizer) as Promise<number>;
}

/**
 * The vocabularies the audit's thread has loaded so far (this thread's from the sources): what a
 * command that counts in one tokenizer, or none, has paid for.
 */
export function auditedVocabularies(): Promise<Tokenizer[]> {
  if (FROM_SOURCE) return Promise.resolve(loadedVocabularies());
  return counter().loaded();
}
