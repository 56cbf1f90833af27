import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../../harness/errors.js';
import { loadCorpus, readJsonFile, readJsonLines } from '../../harness/input/index.js';
import { corpusDigest, guardOutput, readRows, writeFileAtomic } from '../../harness/output/index.js';
import { FindingsError, renderFindings } from '../../harness/report/index.js';
import type { CompilationLine } from '../../harness/types.js';
import { defineCommand } from '../command.js';
import { EXIT } from '../io.js';

/**
 * A findings document from a template and a run folder: every figure comes from the run, so a
 * document can be regenerated, and checked, whenever the results change.
 */
export const findings = defineCommand({
  examples: [
    [
      '$0 findings runs/compiler-v2 --template docs/findings.template.md --out docs/findings.md',
      "the corpus-v2 findings from that corpus's run",
    ],
  ],
  options: (y) =>
    y
      .positional('run', { type: 'string', demandOption: true })
      .option('template', {
        type: 'string',
        demandOption: true,
        describe: 'the document with placeholders ({case/budget/strategy.metric}, {{outcomes case}}, ...)',
      })
      .option('out', { type: 'string', describe: 'write the document here (default: print it)' })
      .option('corpus', {
        type: 'string',
        describe: "the corpus folder the run compiled, for purposes and candidates (default: the run's)",
      }),
  run: (a, { io }) => {
    const run = a.run as string;
    const template = a.template as string;
    if (a.out !== undefined) {
      const inputs = [
        template,
        a.corpus,
        ...['rows.jsonl', 'compilations.jsonl', 'manifest.json'].map((f) => path.join(run, f)),
      ];
      guardOutput({ path: a.out, kind: 'file', option: '--out', inputs });
    }
    if (!fs.existsSync(template)) throw new InputError(template, 'template not found');
    const rows = readRows(run);
    const recorded = runCorpus(run, a.corpus);
    const dir = a.corpus ?? recorded.dir;
    if (!fs.existsSync(dir))
      throw new InputError(dir, "the run's corpus folder is not found from here: pass --corpus");
    // Purposes and candidates are read from the folder as it is now, which the run may predate.
    if (recorded.digest !== undefined && corpusDigest(dir) !== recorded.digest)
      io.err(
        `ctxbench: warning: ${dir} has changed since the run; its purposes and candidates may not match\n`,
      );
    const corpus = loadCorpus(dir);
    const lines = path.join(run, 'compilations.jsonl');
    const compilations = fs.existsSync(lines)
      ? readJsonLines(lines).map(({ value }) => value as CompilationLine)
      : [];
    let text: string;
    try {
      text = renderFindings(fs.readFileSync(template, 'utf8'), {
        rows,
        compilations,
        purposes: corpus.purposes,
        candidates: new Map(corpus.cases.map((c) => [c.name, c.candidates])),
      });
    } catch (e) {
      if (!(e instanceof FindingsError)) throw e;
      throw new InputError(template, e.where);
    }
    if (a.out === undefined) io.out(text);
    else {
      writeFileAtomic(a.out, text);
      io.out(`findings written to ${a.out}\n`);
    }
    return EXIT.ok;
  },
});

/** The corpus folder and digest the run's manifest records (not needed when --corpus names one). */
function runCorpus(run: string, given: string | undefined): { dir: string; digest: string | undefined } {
  const file = path.join(run, 'manifest.json');
  const read = given !== undefined && !fs.existsSync(file) ? null : readJsonFile(file);
  const corpus = (read as { corpus?: { dir?: unknown; digest?: unknown } } | null)?.corpus;
  if (typeof corpus?.dir !== 'string') {
    if (given !== undefined) return { dir: given, digest: undefined };
    throw new InputError(file, 'the run names no corpus folder: pass --corpus');
  }
  return { dir: corpus.dir, digest: typeof corpus.digest === 'string' ? corpus.digest : undefined };
}
