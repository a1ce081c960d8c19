// The restarts of a row: every exit of an Engram process the supervisor saw during the row that nobody asked
// for (an asked-for restart, as the rolling SIGTERM rows make, is no event), less the one exit of each process
// the row's fault kills on purpose (kill -9 of a replica). A crash, an OOM kill or a give-up is counted.
import type { ComponentName } from '@engram/local/components';
import type { SupervisorEvent } from '@engram/local/supervisor';

/** The exits among `events` that neither the row asked for nor its fault made (one per entry of `killed`). */
export function unaskedRestarts(events: readonly SupervisorEvent[], killed: readonly ComponentName[]): number {
  const expected = [...killed];
  let unasked = 0;
  for (const event of events) {
    if (event.kind === 'restarted') continue;
    const at = expected.indexOf(event.component);
    if (event.kind === 'exited' && at !== -1) expected.splice(at, 1);
    else unasked += 1;
  }
  return unasked;
}
