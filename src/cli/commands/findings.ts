import fs from 'node:fs';
import path from 'node:path';
import { casePurposes } from '../../harness/input/corpus.js';
import { InputError } from '../../harness/input/errors.js';
import { readJsonFile, readJsonLines } from '../../harness/input/files.js';
import { writeFileAtomic } from '../../harness/output/files.js';
import { readRows } from '../../harness/output/run-folder.js';
import { renderFindings } from '../../harness/report/findings.js';
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
        describe: "the corpus folder whose manifest says what each case is for (default: the run's)",
      }),
  run: (a, { io }) => {
    const run = a.run as string;
    const template = a.template as string;
    if (!fs.existsSync(template)) throw new InputError(template, 'template not found');
    const rows = readRows(run);
    const corpusDir = a.corpus ?? corpusDirOf(run);
    const compilations = readJsonLines(path.join(run, 'compilations.jsonl')).map(
      ({ value }) => value as CompilationLine,
    );
    let text: string;
    try {
      text = renderFindings(fs.readFileSync(template, 'utf8'), {
        rows,
        compilations,
        purposes: casePurposes(corpusDir),
      });
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw new InputError(template, (e as Error).message.replace(/^findings: /, ''));
    }
    if (a.out === undefined) io.out(text);
    else {
      writeFileAtomic(a.out, text);
      io.out(`findings written to ${a.out}\n`);
    }
    return EXIT.ok;
  },
});

function corpusDirOf(run: string): string {
  const file = path.join(run, 'manifest.json');
  const dir = (readJsonFile(file) as { corpus?: { dir?: unknown } } | null)?.corpus?.dir;
  if (typeof dir !== 'string') throw new InputError(file, 'the run names no corpus folder: pass --corpus');
  return dir;
}
