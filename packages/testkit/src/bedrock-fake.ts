// A stand-in for Amazon Bedrock Runtime at its HTTP protocol, for tests that drive the real SDK
// (@aws-sdk/client-bedrock-runtime, which speaks HTTP/2: this is a cleartext HTTP/2 server). It answers
// Converse (JSON) and ConverseStream (application/vnd.amazon.eventstream frames, encoded with Smithy's
// codec) with a tool call carrying the cards it is told to give, and can throttle, hang until the
// client gives up, cut a stream midway, or send malformed tool input. It records every request.
import { createServer, type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { text as bodyText } from 'node:stream/consumers';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';

/** What the fake answers one call with. */
export type BedrockAnswer =
  /** A tool call with these cards (streamed in pieces of `pieceSize` characters of JSON). */
  | { cards: unknown[]; pieceSize?: number; usage?: { inputTokens: number; outputTokens: number } }
  /** The tool input exactly as given (for malformed JSON). */
  | { toolInput: string }
  /** 429 ThrottlingException, as Bedrock answers when the account's quota is used up. */
  | { throttle: true }
  /** Never answers: the client's timeout must end the call. */
  | { hang: true }
  /** Streams these cards, then breaks the stream off after `cutAfter` of them (ConverseStream only). */
  | { cards: unknown[]; cutAfter: number }
  /** Streams `holdAfter` of these cards, then sends nothing more until the client gives up (ConverseStream only). */
  | { cards: unknown[]; holdAfter: number };

export interface BedrockRequest {
  operation: 'converse' | 'converse-stream';
  modelId: string;
  body: {
    system?: { text: string }[];
    messages?: { role: string; content: { text?: string }[] }[];
    toolConfig?: { tools?: { toolSpec?: { name: string; inputSchema?: { json?: unknown } } }[]; toolChoice?: unknown };
  };
  authorization: string;
}

export interface BedrockFake {
  /** The endpoint to give the SDK (`endpoint`) or BEDROCK_ENDPOINT. */
  url: string;
  requests: BedrockRequest[];
  /** The answers to the next calls, in order; after them, `fallback`. */
  script(...answers: BedrockAnswer[]): void;
  /** The answer when nothing is scripted (by default, no cards). */
  fallback: (request: BedrockRequest) => BedrockAnswer;
  stop(): Promise<void>;
}

const TOOL_USE_ID = 'tooluse_fake';
const codec = new EventStreamCodec(toUtf8, fromUtf8);

function frame(eventType: string, body: object): Uint8Array {
  return codec.encode({
    headers: {
      ':message-type': { type: 'string', value: 'event' },
      ':event-type': { type: 'string', value: eventType },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: fromUtf8(JSON.stringify(body)),
  });
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

function toolName(request: BedrockRequest): string {
  return request.body.toolConfig?.tools?.[0]?.toolSpec?.name ?? 'tool';
}

function answerConverse(res: Http2ServerResponse, request: BedrockRequest, answer: BedrockAnswer) {
  const input =
    'toolInput' in answer ? answer.toolInput : JSON.stringify({ cards: 'cards' in answer ? answer.cards : [] });
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    // Bedrock itself never sends invalid JSON here; a model's wrong shape is the closest it gets.
    parsed = { cards: input };
  }
  const usage = 'usage' in answer && answer.usage ? answer.usage : { inputTokens: 120, outputTokens: 80 };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      output: {
        message: {
          role: 'assistant',
          content: [{ toolUse: { toolUseId: TOOL_USE_ID, name: toolName(request), input: parsed } }],
        },
      },
      stopReason: 'tool_use',
      usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens },
      metrics: { latencyMs: 42 },
    }),
  );
}

function answerStream(
  res: Http2ServerResponse,
  request: BedrockRequest,
  answer: BedrockAnswer,
  hanging: Set<Http2ServerResponse>,
) {
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
  res.write(frame('messageStart', { role: 'assistant' }));
  res.write(
    frame('contentBlockStart', {
      contentBlockIndex: 0,
      start: { toolUse: { toolUseId: TOOL_USE_ID, name: toolName(request) } },
    }),
  );
  const delta = (input: string) =>
    res.write(frame('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input } } }));
  if ('holdAfter' in answer) {
    const sent = answer.cards.slice(0, answer.holdAfter).map((card) => JSON.stringify(card));
    delta(`{"cards":[${sent.join(',')},`);
    hanging.add(res);
    res.on('close', () => hanging.delete(res));
    return;
  }
  if ('cutAfter' in answer) {
    const kept = answer.cards.slice(0, answer.cutAfter).map((card) => JSON.stringify(card));
    delta(`{"cards":[${kept.join(',')},{"type":"basic","fro`);
    // The connection's stream is reset mid-answer, as when Bedrock's side fails.
    setTimeout(() => res.stream.close(2), 20);
    return;
  }
  const input =
    'toolInput' in answer ? answer.toolInput : JSON.stringify({ cards: 'cards' in answer ? answer.cards : [] });
  for (const piece of pieces(input, 'pieceSize' in answer && answer.pieceSize ? answer.pieceSize : 40)) delta(piece);
  res.write(frame('contentBlockStop', { contentBlockIndex: 0 }));
  res.write(frame('messageStop', { stopReason: 'tool_use' }));
  const usage = 'usage' in answer && answer.usage ? answer.usage : { inputTokens: 120, outputTokens: 80 };
  res.end(
    frame('metadata', {
      usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens },
      metrics: { latencyMs: 42 },
    }),
  );
}

export async function startBedrockFake(): Promise<BedrockFake> {
  const queue: BedrockAnswer[] = [];
  const requests: BedrockRequest[] = [];
  const hanging = new Set<Http2ServerResponse>();
  const fake: Omit<BedrockFake, 'url' | 'stop'> = {
    requests,
    script: (...answers) => queue.push(...answers),
    fallback: () => ({ cards: [] }),
  };
  const server = createServer(async (req, res) => {
    const match = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) {
      res.writeHead(404, { 'content-type': 'application/json', 'x-amzn-errortype': 'UnknownOperationException' });
      res.end(JSON.stringify({ message: 'Unknown operation' }));
      return;
    }
    const request: BedrockRequest = {
      operation: match[2] as BedrockRequest['operation'],
      modelId: decodeURIComponent(match[1] ?? ''),
      body: JSON.parse(await bodyText(req)) as BedrockRequest['body'],
      authorization: String(req.headers.authorization ?? ''),
    };
    requests.push(request);
    const answer = queue.shift() ?? fake.fallback(request);
    if ('throttle' in answer) {
      res.writeHead(429, { 'content-type': 'application/json', 'x-amzn-errortype': 'ThrottlingException' });
      res.end(JSON.stringify({ message: 'Too many requests, please wait before trying again.' }));
    } else if ('hang' in answer) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
    } else if (request.operation === 'converse') {
      answerConverse(res, request, answer);
    } else {
      answerStream(res, request, answer, hanging);
    }
  });
  const sessions = new Set<ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      for (const res of hanging) res.stream.close();
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
