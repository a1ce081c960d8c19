// The account layer's length limits (docs/product.md#validation-rules): what the auth screens' forms refuse as the
// learner types (better-auth-ui, patched: `lengthLimits`), and the catalogue's message for each, which is also what
// a refusal by identity says.
import {
  NAME_MAX_LENGTH,
  ORGANIZATION_NAME_MAX_LENGTH,
  ORGANIZATION_SLUG_MAX_LENGTH,
  USERNAME_MAX_LENGTH,
} from '@engram/contracts/auth';
import { m } from '../i18n';

export const LENGTH_LIMITS = {
  name: NAME_MAX_LENGTH,
  username: USERNAME_MAX_LENGTH,
  organizationName: ORGANIZATION_NAME_MAX_LENGTH,
  organizationSlug: ORGANIZATION_SLUG_MAX_LENGTH,
};

/** Keyed by the error codes identity refuses with. */
export const LENGTH_LIMIT_MESSAGES = {
  NAME_TOO_LONG: () => m.error_name_too_long({ max: NAME_MAX_LENGTH }),
  USERNAME_TOO_LONG: () => m.error_username_too_long({ max: USERNAME_MAX_LENGTH }),
  ORGANIZATION_NAME_TOO_LONG: () => m.error_organization_name_too_long({ max: ORGANIZATION_NAME_MAX_LENGTH }),
  ORGANIZATION_SLUG_TOO_LONG: () => m.error_organization_slug_too_long({ max: ORGANIZATION_SLUG_MAX_LENGTH }),
} satisfies Record<string, () => string>;
