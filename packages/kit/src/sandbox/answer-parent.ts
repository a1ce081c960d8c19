// The child's side of child-process.ts: takes the one piece of work its parent sends, runs it with a signal the
// parent may abort (to have the work handed back), answers once, and ends.
import { readFile } from 'node:fs/promises';
import { deserialize } from 'node:v8';
import type { FromChild, ToChild } from './child-process.js';

export function answerParent<Q, A>(work: (request: Q, signal: AbortSignal) => Promise<A>): void {
  const stop = new AbortController();
  const reply = (message: FromChild<A>) =>
    new Promise<void>((resolve) => {
      if (!process.send) resolve();
      else process.send(message, undefined, {}, () => resolve());
    });
  // Without its parent nobody watches this process's memory or time: it ends with it.
  process.once('disconnect', () => process.exit(1));
  process.on('message', (message: ToChild<Q>) => {
    if (message.type === 'stop') {
      stop.abort(new Error('the work was asked to stop'));
      return;
    }
    const request =
      message.type === 'run'
        ? Promise.resolve(message.request)
        : readFile(message.path).then((bytes) => deserialize(bytes) as Q);
    request
      .then((given) => work(given, stop.signal))
      .then(
        (answer) => reply({ type: 'answer', answer }),
        (error: unknown) =>
          reply({
            type: 'error',
            message: error instanceof Error ? error.message : String(error),
            name: error instanceof Error ? error.name : 'Error',
          }),
      )
      .finally(() => process.exit(0));
  });
}
