// Input a rule of @engram/contracts/shared-decks refuses: the service answers the first problem, in the
// rule's words and with its reason (which the web app shows in the user's language).
import type { LearningProblem } from '@engram/contracts/shared-decks';
import { Invalid } from '@engram/kit/errors';

export const refusal = ([first]: LearningProblem[]) =>
  new Invalid(first?.message ?? 'Invalid request.', first?.reason ?? 'INVALID_INPUT');
