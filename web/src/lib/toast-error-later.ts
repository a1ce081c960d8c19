// errors.ts's toastError for code on every page (the query cache, the header): the error catalogue loads with the
// first error, not with the page.

export const toastErrorLater = (error: unknown): void =>
  void import('./errors').then((errors) => errors.toastError(error));
