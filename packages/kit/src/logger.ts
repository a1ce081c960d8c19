// Structured JSON logs (pino). Every line carries the service name and, inside a traced operation,
// the trace and span ids, so one request can be followed across the gateway, services and events.
import { trace } from '@opentelemetry/api';
import { type Logger, pino } from 'pino';

export type { Logger } from 'pino';

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to read them back. */
  destination?: NodeJS.WritableStream;
}

export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  const options = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    mixin(_merge: object, _level: number, current: Logger) {
      // A child logger bound to a request already names its trace (event callbacks may run outside it).
      if ('trace_id' in current.bindings()) return {};
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  };
  return destination ? pino(options, destination as pino.DestinationStream) : pino(options);
}
