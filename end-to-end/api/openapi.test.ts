// The API's reference through the real gateway: /api/openapi.json is served to anyone, names this Engram as its
// server, and every example in it runs as it is with a new learner's key; the README's curl lines under
// "<!-- example: api -->" run too (read here as curl reads them: its -X, -H and -d, the shell's quotes and
// $VARIABLES, so the lines a reader copies are the lines tested).
import { readFileSync } from 'node:fs';
import { API_KEY_HEADER } from '@engram/contracts/auth-features';
import { sharedTestStack } from '@engram/testkit/shared-stack';
import { signUpThroughGateway, type TestStack } from '@engram/testkit/stack';
import { beforeAll, describe, expect, it } from 'vitest';
import { authClient, type Json } from '../support/auth-client.js';

let stack: TestStack;

beforeAll(async () => {
  stack = await sharedTestStack();
});

/** A new learner's key with every scope. */
async function keyWithEveryScope(name: string): Promise<string> {
  const cookie = await signUpThroughGateway(stack.url, name);
  const auth = authClient(stack);
  const created = (await (await auth.post('/api-key/create', { name: 'docs' }, cookie)).json()) as Json;
  const scoped = await auth.post(
    '/api-key/set-scopes',
    { keyId: created.id, scopes: ['read', 'write', 'generate'] },
    cookie,
  );
  expect(scoped.status).toBe(200);
  return created.key;
}

/** The words of shell lines as the shell reads them: quotes, `\` line ends and $VARIABLES. */
function shellCommands(script: string, env: Record<string, string>): string[][] {
  const expand = (text: string) => text.replace(/\$(\w+)|\$\{(\w+)\}/g, (_, a, b) => env[a ?? b] ?? '');
  return script
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) =>
      [...line.matchAll(/'([^']*)'|"((?:\\.|[^"\\])*)"|(\S+)/g)].map(([, single, double, bare]) =>
        single !== undefined ? single : expand(double ?? bare ?? ''),
      ),
    );
}

/** A curl command line run with fetch: its method, headers, data and URL. */
async function curl(words: string[]) {
  expect(words[0]).toBe('curl');
  let method = 'GET';
  let url = '';
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 1; i < words.length; i += 1) {
    const word = words[i] as string;
    if (word === '-s') continue;
    if (word === '-X') method = words[++i] as string;
    else if (word === '-H') {
      const [name = '', ...value] = (words[++i] as string).split(':');
      headers[name.trim().toLowerCase()] = value.join(':').trim();
    } else if (word === '-d') {
      body = words[++i];
      if (method === 'GET') method = 'POST';
    } else url = word;
  }
  const response = await fetch(url, { method, headers, ...(body !== undefined && { body }) });
  return { status: response.status, body: (await response.json()) as Json };
}

describe('the API reference', () => {
  it('serves the OpenAPI document to anyone, with this Engram as its server', async () => {
    const response = await fetch(`${stack.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Json;
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: expect.stringMatching(/^http:\/\/localhost:\d+$/) }]);
    expect(Object.keys(document.paths)).toContain('/api/trpc/cards.create');
    const page = await fetch(`${stack.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Engram API reference</title>');
    expect((await fetch(`${stack.url}/api/docs/swagger-ui-bundle.js`)).status).toBe(200);
  });

  it('runs every example of the document with a key', async () => {
    const key = await keyWithEveryScope('examples');
    const document = (await (await fetch(`${stack.url}/api/openapi.json`)).json()) as Json;
    let ran = 0;
    for (const [path, operations] of Object.entries(document.paths as Record<string, Json>)) {
      const query = operations.get?.parameters?.[0]?.content?.['application/json']?.example;
      const body = operations.post?.requestBody?.content?.['application/json']?.example;
      if (path === '/api/anki-connect' || (query === undefined && body === undefined)) continue;
      const response =
        query !== undefined
          ? await fetch(`${stack.url}${path}?input=${encodeURIComponent(JSON.stringify(query))}`, {
              headers: { [API_KEY_HEADER]: key },
            })
          : await fetch(`${stack.url}${path}`, {
              method: 'POST',
              headers: { [API_KEY_HEADER]: key, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
      expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
      expect(((await response.json()) as Json).result).toHaveProperty('data');
      ran += 1;
    }
    expect(ran).toBeGreaterThanOrEqual(10);
  });

  it("runs the README's curl lines as a reader would paste them", async () => {
    const key = await keyWithEveryScope('readme');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = /<!-- example: api -->\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const [create, list] = shellCommands(block ?? '', { ENGRAM_URL: stack.url, ENGRAM_API_KEY: key });
    const created = await curl(create ?? []);
    expect(created.status).toBe(200);
    expect(created.body.result.data).toMatchObject({ front: 'la casa', back: 'the house' });
    const listed = await curl(list ?? []);
    expect(listed.status).toBe(200);
    expect(listed.body.result.data.items.map((card: Json) => card.front)).toEqual(['la casa']);
  });
});
