// A flood of worst-case simulations: a learner with 10,000 new cards (imported from Anki) sets the worst settings the app allows (a
// maximum interval of 1 day, so every card is due every day; 9,999 new cards and reviews a day, so every card is
// studied at once), then asks for the workload of the coming year at five desired retentions and for the
// recommended retention, several times at once through the gateway. The expected outcome: every call is answered,
// with its figures or with a refusal in words (4xx), none with a server error or not at all, and nothing else is
// hurt.
import { DAILY_LIMIT_MAX, MAX_SIMULATED_DAYS } from '@engram/contracts/scheduling';
import { packaged, writeNewCards } from './anki-packages.ts';
import { call, followImport, type HostileLearner, hostileLearner, send, uploadForImport } from './learner.ts';

const CARDS = 10_000;
const RETENTIONS = [0.7, 0.8, 0.9, 0.95, 0.99];
/** Each kind of call, this many at once. */
const EACH = 2;
const IMPORT_BOUND_MS = 120_000;
/** How long a call may go unanswered before the row says it never was. */
const CALL_BOUND_MS = 120_000;

export const SIMULATIONS: HostileLearner = {
  name: `a flood of worst-case simulations (${CARDS.toLocaleString('en')} cards, ${EACH * 2} at once)`,
  expected: 'every call answered, none 5xx',
  async ready(stack) {
    const who = await hostileLearner(stack, 'proof-simulator');
    const { bytes } = await packaged((path) => writeNewCards(path, CARDS));
    const uploadId = await uploadForImport(stack.url, who, 'ten thousand.apkg', bytes);
    const { importId } = await call(stack.url, who, 'imports.start', { uploadId }, 'mutation');
    const imported = await followImport(stack.url, who, importId, IMPORT_BOUND_MS);
    if (imported.state?.status !== 'done' || imported.state.counts.cards !== CARDS) {
      throw new Error(`the ${CARDS} cards did not import: ${JSON.stringify(imported.state)}`);
    }
    await call(stack.url, who, 'settings.update', { maximumIntervalDays: 1 }, 'mutation');
    const limits = { newPerDay: DAILY_LIMIT_MAX, reviewsPerDay: DAILY_LIMIT_MAX };
    await call(stack.url, who, 'settings.updatePreset', limits, 'mutation');
    return async () => {
      const simulate = { desiredRetentions: RETENTIONS, days: MAX_SIMULATED_DAYS };
      const calls = [
        ...Array.from({ length: EACH }, () => ['settings.simulate', simulate] as const),
        ...Array.from({ length: EACH }, () => ['settings.recommendRetention', {}] as const),
      ];
      const started = performance.now();
      const answers = await Promise.all(
        calls.map(async ([path, input]) => {
          const answer = await send(stack.url, who, path, input, 'query', CALL_BOUND_MS).catch((error: Error) => ({
            status: 0,
            message: error.message,
          }));
          return { path, ms: performance.now() - started, ...answer };
        }),
      );
      const problems = answers.flatMap(({ path, status, message }) =>
        status === 200 || (status >= 400 && status < 500 && message)
          ? []
          : [`${path} answered ${status === 0 ? message : `${status} ${message}`}`],
      );
      const outcome = answers
        .map(
          ({ path, status, ms }) =>
            `${path.replace('settings.', '')} ${status || 'no answer'} in ${(ms / 1000).toFixed(1)} s`,
        )
        .join(', ');
      return { outcome, problems };
    };
  },
};
