// A refusal of the file itself, in words for the learner (a reason of contracts' import-problems): the import
// fails and nothing is written.
import type { ImportProblemWords } from '@engram/contracts/import-problems';

export class ImportFailed extends Error {
  readonly problem: ImportProblemWords;
  constructor(problem: ImportProblemWords) {
    super(problem.message);
    this.name = 'ImportFailed';
    this.problem = problem;
  }
}
