// The Bedrock generator: Converse with a tool (the cards' JSON schema) through the real AWS SDK, streamed
// (ConverseStream: each card goes out the moment its JSON closes) or in one answer (Converse). Throttling,
// timeouts and a busy model are tried again with exponential back-off while the caller's deadline allows,
// but only before the first card: once cards went out, a broken stream ends the generation with them.
import {
  BedrockRuntimeClient,
  ConverseCommand,
  type ConverseCommandInput,
  ConverseStreamCommand,
  type ConverseStreamOutput,
  type ToolConfiguration,
} from '@aws-sdk/client-bedrock-runtime';
import type { Logger } from '@engram/kit/logger';
import type { BedrockSettings } from '../config.js';
import { CardStreamParser } from './card-stream.js';
import {
  type CardGenerator,
  type GenerationRequest,
  type GeneratorEvent,
  GeneratorFailure,
  type ShapeRequest,
} from './generator.js';
import { CARDS_SCHEMA, systemPrompt, TOOL_NAME, userMessage } from './prompt.js';

const RETRYABLE_ERRORS = new Set([
  'ThrottlingException',
  'ServiceUnavailableException',
  'ModelNotReadyException',
  'ModelTimeoutException',
  'InternalServerException',
  'ModelStreamErrorException',
  'TimeoutError',
]);
const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 4_000;
const MAX_OUTPUT_TOKENS = 4_096;

function isRetryable(error: unknown): boolean {
  const e = error as { name?: string; code?: string; $retryable?: unknown; $metadata?: { httpStatusCode?: number } };
  if (RETRYABLE_ERRORS.has(e.name ?? '') || e.$retryable) return true;
  const statusCode = e.$metadata?.httpStatusCode ?? 0;
  if (statusCode === 429 || statusCode >= 500) return true;
  // The connection failed or broke (the model's host restarted, a proxy cut it).
  return ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ERR_HTTP2_STREAM_ERROR', 'ERR_HTTP2_SESSION_ERROR'].includes(
    e.code ?? '',
  );
}

function describe(error: unknown): string {
  const e = error as { name?: string; message?: string };
  return `${e.name ?? 'Error'}: ${e.message ?? String(error)}`;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** The one tool a model must answer with: its name, what it does and its input's JSON schema. */
const onlyTool = (name: string, description: string, schema: object): ToolConfiguration => ({
  tools: [{ toolSpec: { name, description, inputSchema: { json: schema as never } } }],
  toolChoice: { tool: { name } },
});

/** The Converse call for `request`: the notes, and the one tool the model must answer with. */
function converseInput(modelId: string, request: GenerationRequest): ConverseCommandInput {
  return {
    modelId,
    system: [{ text: systemPrompt(request) }],
    messages: [{ role: 'user', content: [{ text: userMessage(request) }] }],
    toolConfig: onlyTool(TOOL_NAME, 'Proposes flashcards made from the notes.', CARDS_SCHEMA),
    inferenceConfig: { maxTokens: MAX_OUTPUT_TOKENS, temperature: 0.2 },
  };
}

const SHAPES_TOOL = 'propose_occlusion_shapes';
const SHAPES_SCHEMA = {
  type: 'object',
  properties: {
    shapes: {
      type: 'array',
      description: 'Boxes over the parts of the picture worth asking, most often its text labels.',
      items: {
        type: 'object',
        properties: {
          label: { type: 'string', description: 'What the box hides, as the picture says it (its label text).' },
          left: { type: 'number', description: "The box's left edge, as a fraction of the picture's width (0–1)." },
          top: { type: 'number', description: "The box's top edge, as a fraction of the picture's height (0–1)." },
          width: { type: 'number', description: "The box's width, as a fraction of the picture's width." },
          height: { type: 'number', description: "The box's height, as a fraction of the picture's height." },
        },
        required: ['label', 'left', 'top', 'width', 'height'],
      },
    },
  },
  required: ['shapes'],
} as const;

/** The Converse call proposing an occlusion card's shapes: the picture, and the one tool the model answers with. */
function shapesInput(modelId: string, request: ShapeRequest, maxShapes: number): ConverseCommandInput {
  const language = request.language ? ` Write the labels in ${request.language}.` : '';
  return {
    modelId,
    system: [
      {
        text:
          'You make image occlusion flashcards. Given a picture (a diagram, a map, a labelled figure), propose boxes ' +
          'that hide its parts worth recalling, most often its text labels, each box tight around one label, with ' +
          `what it hides as its label. At most ${maxShapes} boxes; none overlapping; no box over the whole picture.`,
      },
    ],
    messages: [
      {
        role: 'user',
        content: [
          { image: { format: request.format, source: { bytes: request.picture } } },
          { text: `Propose the boxes for this picture.${language}` },
        ],
      },
    ],
    toolConfig: onlyTool(SHAPES_TOOL, 'Proposes the boxes of an image occlusion card over the picture.', SHAPES_SCHEMA),
    inferenceConfig: { maxTokens: MAX_OUTPUT_TOKENS, temperature: 0.2 },
  };
}

/** The usage event of an answer: its tokens, and its latency as Bedrock measured it (ours, since `started`, without). */
function usageEvent(
  usage: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined,
  latencyMs: number | undefined,
  started: number,
): GeneratorEvent {
  return {
    kind: 'usage',
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    latencyMs: latencyMs ?? Math.round(performance.now() - started),
  };
}

/** One ConverseStream call: each card as its JSON closes, then the usage. */
async function* streamed(
  client: BedrockRuntimeClient,
  modelId: string,
  request: GenerationRequest,
  signal: AbortSignal,
): AsyncGenerator<GeneratorEvent> {
  const started = performance.now();
  const response = await client.send(new ConverseStreamCommand(converseInput(modelId, request)), {
    abortSignal: signal,
  });
  const parser = new CardStreamParser();
  let usage: GeneratorEvent | undefined;
  let stopped = false;
  for await (const event of (response.stream ?? []) as AsyncIterable<ConverseStreamOutput>) {
    if (event.messageStop) stopped = true;
    const piece = event.contentBlockDelta?.delta?.toolUse?.input;
    if (piece) for (const card of parser.push(piece)) yield { kind: 'card', card };
    if (event.metadata) usage = usageEvent(event.metadata.usage, event.metadata.metrics?.latencyMs, started);
  }
  // An abort closes the HTTP/2 stream, which ends the events quietly: never mistake that for an answer.
  if (signal.aborted) throw signal.reason;
  if (!stopped) throw new GeneratorFailure('the answer ended before the model finished', true);
  yield usage ?? usageEvent(undefined, undefined, started);
}

/** One Converse call: the cards of its one answer, then the usage. */
async function* single(
  client: BedrockRuntimeClient,
  modelId: string,
  request: GenerationRequest,
  signal: AbortSignal,
): AsyncGenerator<GeneratorEvent> {
  const started = performance.now();
  const response = await client.send(new ConverseCommand(converseInput(modelId, request)), { abortSignal: signal });
  const toolUse = response.output?.message?.content?.find((block) => block.toolUse?.name === TOOL_NAME)?.toolUse;
  const cards = (toolUse?.input as { cards?: unknown } | undefined)?.cards;
  if (Array.isArray(cards)) for (const card of cards) yield { kind: 'card', card };
  yield usageEvent(response.usage, response.metrics?.latencyMs, started);
}

/** The most shapes the model is asked for (the handler keeps at most this many). */
export const MAX_PROPOSED_SHAPES = 20;

export function createBedrockGenerator(settings: BedrockSettings, logger: Logger): CardGenerator {
  const client = new BedrockRuntimeClient({
    region: settings.region,
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    ...(settings.credentials && { credentials: settings.credentials }),
    // Retries are ours: they must respect the caller's deadline and stop once cards went out.
    maxAttempts: 1,
  });

  return {
    name: 'bedrock',
    model: settings.modelId,
    async *generate(request, signal) {
      for (let attempt = 0; ; attempt++) {
        const remaining = request.deadline.getTime() - Date.now();
        const call = AbortSignal.any([
          signal,
          AbortSignal.timeout(Math.max(1, Math.min(settings.callTimeoutMs, remaining))),
        ]);
        let delivered = 0;
        try {
          const converse = settings.streaming ? streamed : single;
          for await (const event of converse(client, settings.modelId, request, call)) {
            if (event.kind === 'card') delivered += 1;
            yield event;
          }
          return;
        } catch (error) {
          if (signal.aborted) throw error;
          const timedOut = call.aborted;
          const retryable = timedOut || isRetryable(error);
          const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** attempt) * (0.8 + Math.random() * 0.4);
          const reason = timedOut ? 'the model took too long to answer' : describe(error);
          if (delivered > 0)
            throw new GeneratorFailure(`the model's answer broke off (${reason})`, false, { cause: error });
          if (!retryable || Date.now() + backoff >= request.deadline.getTime()) {
            throw new GeneratorFailure(reason, retryable, { cause: error });
          }
          logger.warn(
            { attempt: attempt + 1, backoffMs: Math.round(backoff), err: reason },
            'Bedrock call failed; trying again',
          );
          await sleep(backoff, signal);
        }
      }
    },
    // One Converse call with the picture, tried again as a generation's first call is (throttled, timed out).
    async proposeShapes(request, signal) {
      for (let attempt = 0; ; attempt++) {
        const remaining = request.deadline.getTime() - Date.now();
        const call = AbortSignal.any([
          signal,
          AbortSignal.timeout(Math.max(1, Math.min(settings.callTimeoutMs, remaining))),
        ]);
        const started = performance.now();
        try {
          const response = await client.send(
            new ConverseCommand(shapesInput(settings.modelId, request, MAX_PROPOSED_SHAPES)),
            { abortSignal: call },
          );
          const toolUse = response.output?.message?.content?.find((block) => block.toolUse?.name === SHAPES_TOOL);
          const shapes = (toolUse?.toolUse?.input as { shapes?: unknown } | undefined)?.shapes;
          const usage = usageEvent(response.usage, response.metrics?.latencyMs, started);
          return {
            shapes: Array.isArray(shapes) ? shapes : [],
            usage: usage.kind === 'usage' ? usage : { inputTokens: 0, outputTokens: 0, latencyMs: 0 },
          };
        } catch (error) {
          if (signal.aborted) throw error;
          const timedOut = call.aborted;
          const retryable = timedOut || isRetryable(error);
          const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** attempt) * (0.8 + Math.random() * 0.4);
          const reason = timedOut ? 'the model took too long to answer' : describe(error);
          if (!retryable || Date.now() + backoff >= request.deadline.getTime()) {
            throw new GeneratorFailure(reason, retryable, { cause: error });
          }
          logger.warn(
            { attempt: attempt + 1, backoffMs: Math.round(backoff), err: reason },
            'Bedrock call failed; trying again',
          );
          await sleep(backoff, signal);
        }
      }
    },
  };
}
