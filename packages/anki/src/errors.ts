// Why a file was refused: every refusal of openPackage (and the reader behind it) is an AnkiPackageError
// with a code the import job can branch on and a message a learner understands as it stands.

export const ANKI_PACKAGE_ERRORS = {
  notZip: 'This file is not an Anki package (.apkg or .colpkg).',
  zipBomb: 'This Anki package unpacks to more data than we accept, so it was not imported.',
  tooManyFiles: 'This Anki package holds more files than we accept, so it was not imported.',
  unsafeName: 'This Anki package contains a file with an unsafe name, so it was not imported.',
  mediaTooLarge: 'This Anki package contains a media file larger than we accept, so it was not imported.',
  corruptDatabase: 'The collection inside this Anki package is damaged and cannot be read.',
  fieldTooLarge: 'A note in this Anki package has a field larger than we accept, so it was not imported.',
  unknownLayout: 'This Anki package was made in a format we do not know. Export it again from a current Anki.',
  corruptMedia: 'The media list inside this Anki package is damaged and cannot be read.',
} as const;

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
