// Row ids: a value that is not one is simply not found, without a query.

/** Whether `id` can be a row id here (a UUID). */
export const isId = (id: string) => /^[0-9a-f-]{36}$/i.test(id);
