/** Study: the matrix of cases, budgets and strategies (runStudy), its run folder written and resumed, and a run folder validated by running it again. */

export { runStudy } from './run-study.js';
export { finishedText, plannedStudy, stoppedLine } from './study-folder.js';
export { checkRunFolder, runCheckText } from './validate-run.js';
