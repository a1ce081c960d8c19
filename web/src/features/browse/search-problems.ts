// A malformed search's problem in the learner's language, by its code (@engram/contracts/card-search).
import type { CardSearchError, CardSearchProblem } from '@engram/contracts/card-search';
import { m } from '../../lib/i18n';

type Values = Record<string, string | number>;

const TEXTS: Record<CardSearchProblem, (values: Values) => string> = {
  tooLong: (v) => m.browse_problem_too_long({ max: Number(v.max) }),
  trailingBackslash: () => m.browse_problem_trailing_backslash(),
  badEscape: (v) => m.browse_problem_bad_escape({ char: String(v.char) }),
  unclosedQuote: () => m.browse_problem_unclosed_quote(),
  emptyQuotes: () => m.browse_problem_empty_quotes(),
  missingField: () => m.browse_problem_missing_field(),
  missingName: (v) => m.browse_problem_missing_name({ name: String(v.name) }),
  missingTemplate: () => m.browse_problem_missing_template(),
  templateZero: () => m.browse_problem_template_zero(),
  badState: (v) => m.browse_problem_bad_state({ states: String(v.states), value: String(v.value) }),
  badAdded: () => m.browse_problem_bad_added(),
  badRated: () => m.browse_problem_bad_rated(),
  badRating: () => m.browse_problem_bad_rating(),
  badProp: () => m.browse_problem_bad_prop(),
  badIds: (v) => m.browse_problem_bad_ids({ name: String(v.name) }),
  operatorAlone: (v) => m.browse_problem_operator_alone({ operator: String(v.operator) }),
  dashAlone: () => m.browse_problem_dash_alone(),
  emptyGroup: () => m.browse_problem_empty_group(),
  unclosedGroup: () => m.browse_problem_unclosed_group(),
  strayClose: () => m.browse_problem_stray_close(),
};

export const problemText = (error: CardSearchError): string => TEXTS[error.problem](error.values);
