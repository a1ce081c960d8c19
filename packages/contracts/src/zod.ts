// The one way the contracts import zod. Zod compiles fast parsers with `new Function` when it may; to find
// out, it tries once, and in a page whose Content-Security-Policy forbids eval (Engram's: script-src
// 'self') that try is reported as a blocked eval. In a browser the schemas therefore parse without eval
// (jitless); services keep the compiled parsers.
import { z } from 'zod';
import { config } from 'zod/v4/core';

if ('document' in globalThis) config({ jitless: true });

export { z };
