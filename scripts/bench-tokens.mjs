#!/usr/bin/env node
// The time `countTokens` (src/harness/corpus/bpe.ts) takes on one text of millions of characters,
// counted whole as a problem statement or a file is, from a fixed seed: words of 3-10 random
// letters, almost all distinct (`random`), or drawn from 5,000 such words (`few`), one space
// apart; random CJK characters with no break (`cjk`: one o200k piece, three bytes a character);
// random emoji each with U+FE0F (`emoji-vs`: one cl100k piece, seven bytes to two characters);
// one CJK character repeated (`repeat`). Its bytes, not its characters, are what a piece costs.
// DIST is a built dist/ folder: this package's by default, or a copy of an older build (with a
// node_modules beside or above it) to compare against. `cpu_seconds` is the time this process ran,
// steadier than `seconds` on a busy machine.
// Usage: node scripts/bench-tokens.mjs [o200k|cl100k] [random|few|cjk|emoji-vs|repeat]
//   [millions of characters=4] [DIST=dist]
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [tokenizer = 'o200k', kind = 'random', millions = '4', dist = path.join(root, 'dist')] =
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
const units = {
  random: () => `${word()} `,
  few: () => `${vocabulary[Math.floor(random() * vocabulary.length)]} `,
  // U+4E00 on: 20,000 of the common CJK ideographs.
  cjk: () => String.fromCodePoint(0x4e00 + Math.floor(random() * 20000)),
  // U+1F600 on: 80 faces, each with the variation selector that asks for its emoji form.
  'emoji-vs': () => `${String.fromCodePoint(0x1f600 + Math.floor(random() * 80))}\ufe0f`,
  repeat: () => '\u6f22',
};
const unit = units[kind];
if (unit === undefined) throw new Error(`no such kind: ${kind} (${Object.keys(units).join(', ')})`);
const length = Number(millions) * 1e6;
// Whole units only, so that no surrogate pair is cut in two.
const chunks = [];
for (let size = 0, u = unit(); size + u.length <= length; size += u.length, u = unit()) chunks.push(u);
const text = chunks.join('');

countTokens(tokenizer, 'the vocabulary loaded before the clock starts');
const started = performance.now();
const cpu = process.cpuUsage();
const tokens = countTokens(tokenizer, text);
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    dist: process.argv[5] ?? 'dist',
    tokenizer,
    kind,
    characters: text.length,
    tokens,
    seconds: Number(seconds.toFixed(2)),
    cpu_seconds: Number(((used.user + used.system) / 1e6).toFixed(2)),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
