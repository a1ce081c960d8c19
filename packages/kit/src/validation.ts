// Validates a request with zod; a failure becomes the typed Invalid error (INVALID_ARGUMENT), with the
// first problem as the message, so bad input gets a clear message and changes nothing.

import type { z } from 'zod';
import { Invalid } from './errors.js';

export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new Invalid(result.error.issues[0]?.message ?? 'Invalid request.', 'INVALID_INPUT');
}
