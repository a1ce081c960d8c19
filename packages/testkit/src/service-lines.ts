// What the services under test said last: each keeps its last warnings and errors, and a wait that times out
// (wait.ts) prints them, so a failure on a loaded machine explains itself instead of only naming what was
// awaited (a relay that could not publish, a consumer that could not be created again).
import { Writable } from 'node:stream';

/** How many lines of each service are kept. */
const KEPT_LINES = 40;

const speaking = new Set<{ service: string; lines: string[] }>();

/** A log destination that keeps `service`'s last lines until `forget` is called (when the service stops). */
export function keepLastLines(service: string): { destination: Writable; forget: () => void } {
  const entry = { service, lines: [] as string[] };
  speaking.add(entry);
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        entry.lines.push(line);
        if (entry.lines.length > KEPT_LINES) entry.lines.shift();
      }
      done();
    },
  });
  return { destination, forget: () => speaking.delete(entry) };
}

/** The kept lines of every service still running, each under its name; empty when none said anything. */
export function lastServiceLines(): string {
  return [...speaking]
    .filter((entry) => entry.lines.length > 0)
    .map((entry) => `${entry.service} said last:\n${entry.lines.map((line) => `  ${line}`).join('\n')}`)
    .join('\n');
}
