// An optimization of a learning-steps history: a learner imports a year of Anki study (anki-history.ts: learning
// steps [1m, 10m], relearning [10m], lapses, breaks of three weeks) before the load starts, then asks for their
// preset to be fitted while the others review. The expected outcome: the fit ends (its parameters adopted or
// kept), and nothing else is hurt.
import { packaged, writeAnkiHistory } from './anki-packages.ts';
import { call, follow, followImport, type HostileLearner, hostileLearner, send, uploadForImport } from './learner.ts';

/** A year of study, ten new cards a day: about 3,650 cards and their reviews. */
const HISTORY = { days: 365, newPerDay: 10 };
const IMPORT_BOUND_MS = 180_000;
/** How long the fit may take before the row says it never ended. */
const FIT_BOUND_MS = 120_000;

export const OPTIMIZATION: HostileLearner = {
  name: 'an optimization of a year of learning steps, lapses and breaks',
  expected: 'the fit ends',
  async ready(stack) {
    const who = await hostileLearner(stack, 'proof-optimizer');
    const { bytes, value: reviews } = await packaged((path) => writeAnkiHistory(path, HISTORY));
    const uploadId = await uploadForImport(stack.url, who, 'a year of anki.apkg', bytes);
    const { importId } = await call(stack.url, who, 'imports.start', { uploadId }, 'mutation');
    const imported = await followImport(stack.url, who, importId, IMPORT_BOUND_MS);
    if (imported.state?.status !== 'done' || imported.state.counts.reviews !== reviews) {
      throw new Error(`the history of ${reviews} reviews did not import: ${JSON.stringify(imported.state)}`);
    }
    return async () => {
      const { jobId } = await call(stack.url, who, 'settings.optimize', {}, 'mutation');
      const fit = await follow(
        async () => (await send(stack.url, who, 'settings.optimization', { jobId }, 'query')).data,
        (state) => state?.status === 'done' || state?.status === 'failed',
        FIT_BOUND_MS,
      );
      const seconds = `${(fit.ms / 1000).toFixed(1)} s`;
      const outcome = `${reviews} reviews imported; the fit ${fit.done ? `ended ${fit.state.status} (${fit.state.outcome})` : `was still ${fit.state?.status}`} after ${seconds}`;
      const problems = !fit.done
        ? [`the fit had not ended after ${seconds}`]
        : fit.state.status !== 'done'
          ? [`the fit ended ${fit.state.status}`]
          : fit.state.outcome === 'too-few-reviews'
            ? [`the fit found too few of the ${reviews} reviews to learn from`]
            : [];
      return { outcome, problems };
    };
  },
};
