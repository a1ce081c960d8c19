// Why a file was refused: every refusal of openPackage (and the reader behind it) is an AnkiPackageError
// with a code the import job can branch on and a message a learner understands as it stands.
import { ANKI_PACKAGE_PROBLEMS } from '@engram/contracts/import-problems';

/** Each refusal's message (contracts' import-problems, where the web app finds them by code to translate). */
export const ANKI_PACKAGE_ERRORS = ANKI_PACKAGE_PROBLEMS;

export type AnkiPackageErrorCode = keyof typeof ANKI_PACKAGE_ERRORS;

export class AnkiPackageError extends Error {
  override readonly name = 'AnkiPackageError';
  readonly code: AnkiPackageErrorCode;
  /** What exactly was wrong, for logs; never shown to the learner. */
  readonly detail: string | undefined;
  constructor(code: AnkiPackageErrorCode, detail?: string, options?: { cause?: unknown }) {
    super(ANKI_PACKAGE_ERRORS[code], options);
    this.code = code;
    this.detail = detail;
  }
}

export const isAnkiPackageError = (error: unknown): error is AnkiPackageError => error instanceof AnkiPackageError;
