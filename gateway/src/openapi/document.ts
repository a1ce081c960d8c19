// The API's OpenAPI 3.1 document (GET /api/openapi.json), generated from the router itself: every procedure an API
// key may call (all of /api/trpc), its method as tRPC's HTTP protocol takes it (a query is a GET with its input as
// JSON in `?input=`, a mutation a POST with a JSON body), its input's JSON Schema from the contracts' zod schema
// (z.toJSONSchema), the scope a key needs for it (scopeOfCall), and the AnkiConnect endpoint. A procedure added to
// the router is in the document without a line here; only its one-line summary and, for some, a runnable example
// (summaries.ts) are words of ours. end-to-end/api/openapi.test.ts validates the document against the OpenAPI 3.1
// schema and runs every example.
import { API_KEY_HEADER, scopeOfCall } from '@engram/contracts/auth-features';
import type { AnyTRPCProcedure, AnyTRPCRouter } from '@trpc/server';
import { z } from 'zod';
import { ANKI_CONNECT_PATH } from '../http/anki-connect.js';
import { EXAMPLES, SUMMARIES } from './summaries.js';

type Json = Record<string, unknown>;

const SCOPE_NEEDS = {
  read: 'An API key needs its `read` scope.',
  write: 'An API key needs its `write` scope.',
  generate: 'An API key needs its `generate` scope.',
} as const;

/** Procedures open to anyone (no session, no key). */
const PUBLIC_PROCEDURES = new Set(['billing.plans']);
/** Procedures whose body is not JSON: a file sent as FormData. */
const FORM_PROCEDURES = new Set(['ai.upload', 'ai.proposeOcclusions']);

/** The JSON Schema of a zod schema as a request takes it, without the `$schema` line (OpenAPI names its dialect). */
function schemaOf(input: z.ZodType): Json {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as Json;
  return schema;
}

/** Whether a request may leave the input out (it is optional, or every field of it is). */
const optional = (input: z.ZodType) => input.safeParse(undefined).success || input.safeParse({}).success;

const responses = (path: string) => ({
  '200': {
    description: 'The answer, as tRPC sends it: `{"result": {"data": …}}`.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Result' } } },
  },
  '400': { $ref: '#/components/responses/BadRequest' },
  ...(PUBLIC_PROCEDURES.has(path) ? {} : { '401': { $ref: '#/components/responses/Unauthorized' } }),
  '403': { $ref: '#/components/responses/Forbidden' },
  '404': { $ref: '#/components/responses/NotFound' },
  '429': { $ref: '#/components/responses/TooManyRequests' },
});

function operation(path: string, procedure: AnyTRPCProcedure): [string, Json] {
  const def = procedure._def as unknown as { type: 'query' | 'mutation' | 'subscription'; inputs: z.ZodType[] };
  const input = def.inputs[0];
  const scope = scopeOfCall(path, def.type);
  const [tag = path] = path.split('.');
  const example = EXAMPLES[path];
  const summary = SUMMARIES[path] ?? path;
  const base: Json = {
    operationId: path,
    tags: [tag],
    summary,
    description: PUBLIC_PROCEDURES.has(path) ? 'Open to anyone.' : SCOPE_NEEDS[scope],
    ...(PUBLIC_PROCEDURES.has(path) ? { security: [] } : { 'x-engram-scope': scope }),
    responses: responses(path),
  };
  if (def.type === 'query') {
    const parameters = input
      ? [
          {
            name: 'input',
            in: 'query',
            required: !optional(input),
            description: 'The input, as JSON.',
            content: {
              'application/json': { schema: schemaOf(input), ...(example !== undefined && { example }) },
            },
          },
        ]
      : [];
    return ['get', { ...base, parameters }];
  }
  const requestBody = FORM_PROCEDURES.has(path)
    ? {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
            },
          },
        },
      }
    : input
      ? {
          required: !optional(input),
          content: { 'application/json': { schema: schemaOf(input), ...(example !== undefined && { example }) } },
        }
      : undefined;
  return ['post', { ...base, ...(requestBody && { requestBody }) }];
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const ANKI_CONNECT_OPERATION = {
  post: {
    operationId: 'ankiConnect',
    tags: ['anki-connect'],
    summary: "AnkiConnect's protocol, for the tools that add cards to Anki (Yomitan, Obsidian_to_Anki, …).",
    description:
      'The key travels in the body (`key`), never in a header or a cookie, and needs the `read` and `write` scopes. ' +
      'Version 4 or less answers the bare result, 5 or more `{result, error}`; an error is always `{result: null, error}`. ' +
      'An empty body answers the text `AnkiConnect v.6`. README.md, "Use Engram from Yomitan, Obsidian and other Anki tools".',
    security: [],
    requestBody: {
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['action'],
            properties: {
              action: { type: 'string', examples: ['deckNames', 'addNote', 'findNotes', 'multi'] },
              version: { type: 'integer', default: 4 },
              params: { type: 'object' },
              key: { type: 'string', description: 'An Engram API key.' },
            },
          },
          example: { action: 'deckNames', version: 6, key: 'engram_…' },
        },
      },
    },
    responses: {
      '200': {
        description: 'The result (version ≤ 4), or `{result, error}`.',
        content: { 'application/json': { schema: {} }, 'text/plain': { schema: { type: 'string' } } },
      },
    },
  },
};

/** The OpenAPI 3.1 document of `router`, served from `serverUrl`. */
export function openApiDocument(router: AnyTRPCRouter, serverUrl: string): Json {
  const procedures = (router._def as { procedures: Record<string, AnyTRPCProcedure> }).procedures;
  const paths: Record<string, Json> = {};
  for (const path of Object.keys(procedures).sort()) {
    const procedure = procedures[path] as AnyTRPCProcedure;
    const [method, described] = operation(path, procedure);
    paths[`/api/trpc/${path}`] = { [method]: described };
  }
  paths[ANKI_CONNECT_PATH] = ANKI_CONNECT_OPERATION;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Engram API',
      version: '1',
      description:
        "Engram's API: the tRPC procedures the web app calls, open to scripts with an API key (header `x-api-key`; " +
        'create one on Account → API keys and choose its scopes: `read` for every query, `write` for every change, ' +
        "`generate` for card generation), and the AnkiConnect endpoint. Calls follow tRPC's HTTP protocol: a query " +
        'is `GET /api/trpc/<procedure>?input=<JSON>`, a mutation `POST /api/trpc/<procedure>` with a JSON body; the ' +
        'answer is `{"result": {"data": …}}`, an error `{"error": {"message", "data": {"code", "httpStatus", "reason"}}}`. ' +
        'Each key may make 600 calls a minute.',
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    tags: [...new Set(Object.keys(procedures).map((path) => path.split('.')[0] as string))]
      .sort()
      .map((name) => ({ name }))
      .concat([{ name: 'anki-connect' }]),
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER },
      },
      schemas: {
        Result: {
          type: 'object',
          required: ['result'],
          properties: { result: { type: 'object', properties: { data: {} } } },
        },
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              properties: {
                message: { type: 'string' },
                code: { type: 'integer' },
                data: {
                  type: 'object',
                  properties: {
                    code: { type: 'string', examples: ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN'] },
                    httpStatus: { type: 'integer' },
                    path: { type: 'string' },
                    reason: { type: 'string', examples: ['API_KEY_SCOPE_MISSING', 'KEY_DISABLED'] },
                    issues: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: {
                          path: { type: 'array', items: { type: ['string', 'integer'] } },
                          message: { type: 'string' },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      responses: {
        BadRequest: errorResponse('The input is not valid: `data.issues` says where.'),
        Unauthorized: errorResponse('No API key, or one that is disabled, expired or unknown (`data.reason`).'),
        Forbidden: errorResponse('The key lacks the scope (`API_KEY_SCOPE_MISSING`), or its owner may not do this.'),
        NotFound: errorResponse('Nothing of the caller’s by that id.'),
        TooManyRequests: errorResponse('Over the rate limit: `Retry-After` says when to try again.'),
      },
    },
  };
}
