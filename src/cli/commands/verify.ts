import { verifyRun } from '../../harness/audit/index.js';
import { count } from '../../harness/format.js';
import { type CorpusFacts, readRunFolder } from '../../harness/runfolder/index.js';
import { DEFAULTS, defineCommand } from '../command.js';
import { EXIT } from '../io.js';

const corpusText = (c: CorpusFacts): string =>
  `${c.name} (${count(c.cases.length, 'case')}${c.digest === null ? '' : `, digest ${c.digest.slice(0, 12)}`})`;

/**
 * The run's rows of the published strategies it holds against the published run, row by row. A
 * subset of the strategies is judged as such, and a run of another corpus is said to be one, so
 * that neither buries the verdict under hundreds of lines that only restate it.
 */
export const verify = defineCommand({
  examples: [
    ['$0 verify runs/compiler-v1', 'against the published run-001'],
    ['$0 verify runs/mine --published runs/compiler-v1', 'against another run folder'],
  ],
  options: (y) =>
    y.positional('run', { type: 'string', demandOption: true, describe: 'run folder' }).option('published', {
      type: 'string',
      default: DEFAULTS.published(),
      defaultDescription: 'corpus/compiler-v1/published, run-001',
      describe: 'the published run: the vendored run-001, or a run folder written by ctxbench study',
    }),
  run: (a, { io }) => {
    const run = a.run as string;
    const v = verifyRun(readRunFolder(run), a.published);
    const all = v.judged.length + v.absent.length;
    if (v.judged.length === 0) {
      io.out(
        `verify: nothing to verify: ${run} holds none of the published strategies (${v.absent.join(', ')})\n`,
      );
      return EXIT.checkFailed;
    }
    io.out(
      v.absent.length === 0
        ? `verify: judging all ${all} published strategies: ${v.judged.join(', ')}\n`
        : `verify: judging ${v.judged.join(', ')}: ${v.judged.length} of the ${all} published strategies (not in the run: ${v.absent.join(', ')})\n`,
    );
    if (!v.sameCorpus) {
      const shared =
        v.sharedCases.length === 0
          ? 'they share no case, so no row was judged'
          : `only the ${count(v.sharedCases.length, 'case')} both hold ${v.sharedCases.length === 1 ? 'is' : 'are'} judged`;
      io.out(
        `verify: not the published corpus: the run is of ${corpusText(v.runCorpus)}, the published run of ${corpusText(v.publishedCorpus)}; ${shared}\n`,
      );
    }
    for (const d of v.differences) io.out(`${d}\n`);
    if (v.differences.length > 0) {
      io.out(`verify: ${count(v.differences.length, 'difference')} from the published run\n`);
      return EXIT.checkFailed;
    }
    if (!v.sameCorpus) {
      const agree = v.rows === 0 ? '' : ` (the ${count(v.rows, 'row')} judged agree)`;
      io.out(`verify: not verified: the run is not of the published corpus${agree}\n`);
      return EXIT.checkFailed;
    }
    io.out(
      `verify: every published row of ${v.judged.join(', ')} reproduced (${count(v.rows, 'row')}; ${run} against ${a.published})\n`,
    );
    return EXIT.ok;
  },
});
