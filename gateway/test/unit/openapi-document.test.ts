// The API document (GET /api/openapi.json) is generated from the router: it is a valid OpenAPI 3.1 document, it
// names every procedure with the method tRPC takes it by and the scope a key needs, its inputs are the contracts'
// schemas, and every example in it is an input its procedure takes.
import { Validator } from '@seriousme/openapi-schema-validator';
import type { AnyTRPCProcedure } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { openApiDocument } from '../../src/openapi/document.js';
import { EXAMPLES } from '../../src/openapi/summaries.js';
import { appRouter } from '../../src/router.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is read by shape
const document = openApiDocument(appRouter, 'https://engram.example') as any;
const procedures = (appRouter._def as unknown as { procedures: Record<string, AnyTRPCProcedure> }).procedures;

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every procedure: queries as GET with ?input=, mutations as POST with a body, each with its scope', () => {
    const paths = Object.keys(procedures);
    expect(paths.length).toBeGreaterThan(50);
    for (const path of paths) {
      const entry = document.paths[`/api/trpc/${path}`];
      const type = (procedures[path]?._def as { type: string } | undefined)?.type;
      expect(Object.keys(entry), path).toEqual([type === 'query' ? 'get' : 'post']);
    }
    expect(document.paths['/api/trpc/cards.list'].get['x-engram-scope']).toBe('read');
    expect(document.paths['/api/trpc/cards.create'].post['x-engram-scope']).toBe('write');
    expect(document.paths['/api/trpc/ai.generate'].post['x-engram-scope']).toBe('generate');
    expect(document.paths['/api/trpc/billing.plans'].get.security).toEqual([]);
    expect(document.paths['/api/anki-connect'].post.operationId).toBe('ankiConnect');
  });

  it("takes each input's JSON Schema from the contracts, with its limits", () => {
    const create = document.paths['/api/trpc/cards.create'].post.requestBody.content['application/json'].schema;
    // The longest front of any type (an occlusion card's); the others' limit is said beside it and refused.
    expect(create.properties.front).toMatchObject({ type: 'string', maxLength: 20000 });
    expect(create.properties.front.description).toContain('at most 2000 characters');
    expect(create.properties.type.enum).toEqual(['basic', 'reversed', 'cloze', 'typed', 'occlusion', 'note']);
    const list = document.paths['/api/trpc/cards.list'].get.parameters[0];
    expect(list).toMatchObject({ name: 'input', in: 'query' });
    expect(list.content['application/json'].schema.properties.pageSize).toMatchObject({
      type: 'integer',
      maximum: 100,
    });
  });

  it('gives examples each procedure takes as they are', () => {
    for (const [path, example] of Object.entries(EXAMPLES)) {
      const input = (procedures[path]?._def as { inputs: z.ZodType[] } | undefined)?.inputs[0];
      expect(input, path).toBeDefined();
      const parsed = input?.safeParse(example);
      expect(parsed?.success, `${path}: ${JSON.stringify(parsed?.error?.issues)}`).toBe(true);
      const operation = document.paths[`/api/trpc/${path}`];
      const content = (operation.get?.parameters[0] ?? operation.post.requestBody).content['application/json'];
      expect(content.example).toEqual(example);
    }
  });
});
