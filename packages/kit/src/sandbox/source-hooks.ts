// Module resolution for a child process started from TypeScript sources (tests run the services from src/):
// the sources import their siblings as `./name.js`, as the build emits them, so a `.js` that is not there is
// looked for as `.ts`. Registered by source-register.ts; unused when the services run from dist/.
type Resolve = (specifier: string, context: unknown) => Promise<unknown>;

export async function resolve(specifier: string, context: unknown, next: Resolve): Promise<unknown> {
  try {
    return await next(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith('./') || specifier.startsWith('../');
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND' || !relative || !specifier.endsWith('.js')) {
      throw error;
    }
    return next(`${specifier.slice(0, -'.js'.length)}.ts`, context);
  }
}
