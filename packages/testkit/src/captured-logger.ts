// A logger whose JSON lines a test reads back: what a service says in its log is part of its behaviour.
import { PassThrough } from 'node:stream';
import { createLogger, type Logger } from '@engram/kit/logger';

/** The kit's logger for `service`, writing into `lines` (each line parsed) instead of standard output. */
export function capturedLogger(service: string): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  return { logger: createLogger({ service, destination }), lines };
}
