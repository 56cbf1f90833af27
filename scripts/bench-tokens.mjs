#!/usr/bin/env node
// The time `countTokens` (src/harness/corpus/bpe.ts) takes on one text of many megabytes, counted
// whole as a problem statement or a file is: words of 3-10 random letters, almost all distinct
// (`random`), or drawn from 5,000 such words (`few`), one space apart, from a fixed seed.
// DIST is a built dist/ folder: this package's by default, or a copy of an older build (with a
// node_modules beside or above it) to compare against.
// Usage: node scripts/bench-tokens.mjs [o200k|cl100k] [random|few] [megabytes=4] [DIST=dist]
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [tokenizer = 'o200k', kind = 'random', megabytes = '4', dist = path.join(root, 'dist')] =
  process.argv.slice(2);
const bpe = path.resolve(dist, 'src/harness/corpus/bpe.js');
const { countTokens } = await import(pathToFileURL(bpe).href);

// mulberry32: the same words on every run.
let s = 47;
const random = () => {
  s = (s + 0x6d2b79f5) | 0;
  let t = Math.imul(s ^ (s >>> 15), 1 | s);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const word = () => {
  let w = '';
  for (let n = 3 + Math.floor(random() * 8); n > 0; n--)
    w += String.fromCharCode(97 + Math.floor(random() * 26));
  return w;
};
const vocabulary = Array.from({ length: 5000 }, word);
const words = [];
for (let size = 0; size < Number(megabytes) * 1e6; ) {
  const w = kind === 'few' ? vocabulary[Math.floor(random() * vocabulary.length)] : word();
  words.push(w);
  size += w.length + 1;
}
const text = words.join(' ');

countTokens(tokenizer, 'the vocabulary loaded before the clock starts');
const started = performance.now();
const tokens = countTokens(tokenizer, text);
const seconds = (performance.now() - started) / 1000;
console.log(
  JSON.stringify({
    dist: process.argv[5] ?? 'dist',
    tokenizer,
    kind,
    characters: text.length,
    tokens,
    seconds: Number(seconds.toFixed(2)),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
