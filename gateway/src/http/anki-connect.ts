// POST /api/anki-connect: AnkiConnect's protocol (the JSON API of Anki's desktop add-on), so that the tools
// learners capture cards with (Yomitan, asbplayer, Obsidian_to_Anki, AnkiconnectAndroid's clients) work with
// Engram from any device. What the protocol asks, as AnkiConnect's plugin/__init__.py and web.py answer it:
// - a request is `{action, version, params, key}`; an empty body answers the text `AnkiConnect v.6`;
// - a reply follows the caller's version: 4 or less (the default) the bare result, 5 or more `{result, error}`;
//   an error is always `{"result": null, "error": "…"}`, with AnkiConnect's own words, which the tools compare;
// - `multi` runs each of its actions as a request of its own (its own version, default 4; a failure is that
//   entry's `{result: null, error}`). An entry without a key acts with the key of the request that carries it:
//   Yomitan sends its findNotes entries without one, and Engram always asks for one;
// - `key` is an Engram API key, checked (and counted, with its rate limit) by identity for every action; without
//   one, or with a wrong one, the answer is `valid api key must be provided`; a key needs the read and write
//   scopes. `requestPermission` needs none;
// - CORS: the answer may be read from any origin (browser extensions, Obsidian's app://), and a private-network
//   preflight is allowed. This is safe because the endpoint authenticates by key alone: it never reads the
//   session cookie, so a page a learner visits cannot act through their browser's session, and the cross-site
//   guard of cookie-authenticated calls (same-origin.ts) does not apply to it.
// Each action also counts against the key owner's rate limit as any API call does. The actions on cards are
// answered by the cards service (AnkiConnectService); `version`, `requestPermission` and `multi` here.

import { GrpcCallError, unary } from '@engram/kit/grpc/client';
import type { ActResponse } from '@engram/proto/cards/v1/anki_connect';
import { status } from '@grpc/grpc-js';
import type { Request, Response } from 'express';
import express from 'express';
import { AUDIENCES, type Services } from '../clients.js';
import type { TrpcRateLimits } from '../rate-limit.js';
import { resolveApiKey, type SessionInfo } from '../session.js';
import { BodyWorkFailed, readAnkiConnectBody, writeAnkiConnectReply } from './anki-connect-bodies.js';
import { FileRefused, fileBytes, handOffFiles } from './anki-connect-files.js';
import { FILE_MARK } from './anki-connect-media.js';
import type { LiveEvents } from './live-events.js';

export const ANKI_CONNECT_PATH = '/api/anki-connect';
/** The protocol version Engram speaks: AnkiConnect's current one. */
export const ANKI_CONNECT_VERSION = 6;
/**
 * A request's body: a note with the largest picture and sound a card may hold, inline as base64 (their bytes
 * then go to the object store, not through gRPC: anki-connect-files.ts).
 */
export const ANKI_CONNECT_BODY_MAX_BYTES = 48 * 1024 * 1024;
/** The most actions one `multi` may hold. */
export const ANKI_CONNECT_MULTI_MAX = 200;
/** A call the tool waits for: adding a note may keep a picture and a sound first. */
const ACTION_TIMEOUT_MS = 60_000;

export const INVALID_KEY = 'valid api key must be provided';
const UNSUPPORTED_ACTION = 'unsupported action';
const SERVICE_TROUBLE = 'Engram could not answer just now; try again.';
const BUSY_READING = 'Engram is busy reading other large files just now; try again.';

/** Whether a body holds nothing but white space (AnkiConnect answers its version to an empty request). */
const isBlank = (body: Uint8Array) =>
  body.every((byte) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09);
export const ANKI_TOOLS_SCOPES =
  'This API key cannot be used by Anki tools: give it the read and write scopes on the API keys page.';

type Reply = unknown;

interface Options {
  services: Services;
  rateLimits: TrpcRateLimits;
  /** Where guiBrowse shows its cards: the learner's open tabs. */
  live?: LiveEvents | undefined;
}

/** An action's failure: its error as the tool reads it. */
class ActionFailed extends Error {}

/** One request's state: the keys it named, the files taken out of it, the files its reply carries. */
interface Exchange {
  keys: Map<string, Promise<SessionInfo>>;
  files: Uint8Array[];
  replyFiles: Uint8Array[];
}

const versionOf = (request: Record<string, unknown>) =>
  typeof request.version === 'number' && Number.isFinite(request.version) ? request.version : 4;

const success = (version: number, result: unknown): Reply => (version <= 4 ? result : { result, error: null });
const failure = (message: string): Reply => ({ result: null, error: message });

export function ankiConnectRoute(options: Options): express.Router {
  const router = express.Router();
  router.use(ANKI_CONNECT_PATH, (req, res, next) => {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-methods', 'POST, GET, OPTIONS');
    res.setHeader('access-control-allow-headers', req.get('access-control-request-headers') ?? 'content-type');
    res.setHeader('access-control-max-age', '600');
    if (req.get('access-control-request-private-network') === 'true') {
      res.setHeader('access-control-allow-private-network', 'true');
    }
    if (req.method === 'OPTIONS') {
      res.status(200).end();
      return;
    }
    next();
  });
  router.all(
    ANKI_CONNECT_PATH,
    express.raw({ type: () => true, limit: ANKI_CONNECT_BODY_MAX_BYTES }),
    async (req: Request, res: Response) => {
      const body: Uint8Array = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      res.setHeader('cache-control', 'no-store');
      if (isBlank(body)) {
        res.type('text/plain').send(`AnkiConnect v.${ANKI_CONNECT_VERSION}`);
        return;
      }
      let read: Awaited<ReturnType<typeof readAnkiConnectBody>>;
      try {
        read = await readAnkiConnectBody(body);
      } catch (error) {
        if (!(error instanceof BodyWorkFailed)) throw error;
        req.log.warn({ err: error, contentLength: body.byteLength }, 'AnkiConnect request could not be read');
        res.json(failure(BUSY_READING));
        return;
      }
      if ('invalid' in read) {
        res.json(failure('the request is not JSON'));
        return;
      }
      const exchange: Exchange = { keys: new Map(), files: read.files, replyFiles: [] };
      const reply = await handle(options, req, read.request, exchange, undefined);
      let written: Uint8Array;
      try {
        written = await writeAnkiConnectReply(reply, exchange.replyFiles);
      } catch (error) {
        if (!(error instanceof BodyWorkFailed)) throw error;
        req.log.warn({ err: error }, 'AnkiConnect reply could not be written');
        res.json(failure(BUSY_READING));
        return;
      }
      res.type('application/json').send(Buffer.from(written.buffer, written.byteOffset, written.byteLength));
    },
  );
  // A body over the limit: the protocol's error, not an HTML page.
  router.use(
    ANKI_CONNECT_PATH,
    (error: Error & { type?: string }, req: Request, res: Response, next: express.NextFunction) => {
      if (error.type !== 'entity.too.large') return next(error);
      req.log.warn({ contentLength: req.get('content-length') }, 'AnkiConnect request too large');
      res.status(200).json(failure(`the request is larger than ${ANKI_CONNECT_BODY_MAX_BYTES / 1024 / 1024} MB`));
    },
  );
  return router;
}

/** One request (or one entry of `multi`): its reply, success or failure, in the form its version asks. */
async function handle(
  options: Options,
  req: Request,
  request: unknown,
  exchange: Exchange,
  outerKey: string | undefined,
): Promise<Reply> {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    return failure('the request must be an object');
  }
  const fields = request as Record<string, unknown>;
  const version = versionOf(fields);
  const action = typeof fields.action === 'string' ? fields.action : '';
  const params =
    fields.params && typeof fields.params === 'object' && !Array.isArray(fields.params)
      ? (fields.params as Record<string, unknown>)
      : {};
  try {
    if (action === 'requestPermission') {
      // Granted to every origin: the key, asked for by every other action, is the permission.
      return success(version, {
        permission: 'granted',
        requireApiKey: true,
        requireApikey: true,
        version: ANKI_CONNECT_VERSION,
      });
    }
    const key = typeof fields.key === 'string' && fields.key !== '' ? fields.key : outerKey;
    const session = await ownerOf(options, req, key, exchange.keys, action);
    if (action === 'version') return success(version, ANKI_CONNECT_VERSION);
    if (action === 'multi') {
      const actions = Array.isArray(params.actions) ? params.actions : null;
      if (!actions) throw new ActionFailed('multi needs a list of actions');
      if (actions.length > ANKI_CONNECT_MULTI_MAX) {
        throw new ActionFailed(`multi may hold at most ${ANKI_CONNECT_MULTI_MAX} actions`);
      }
      const replies: Reply[] = [];
      // One at a time, in order, as AnkiConnect runs them: a later action may read what an earlier one wrote.
      for (const entry of actions) replies.push(await handle(options, req, entry, exchange, key));
      return success(version, replies);
    }
    return success(version, await act(options, req, session, action, params, exchange));
  } catch (error) {
    if (error instanceof ActionFailed) return failure(error.message);
    req.log.error({ err: error, action }, 'AnkiConnect action failed');
    return failure(SERVICE_TROUBLE);
  }
}

/** The owner of `key`, asked of identity once per request and key (each action is still counted below). */
async function ownerOf(
  options: Options,
  req: Request,
  key: string | undefined,
  keys: Map<string, Promise<SessionInfo>>,
  action: string,
): Promise<SessionInfo> {
  if (!key) throw new ActionFailed(INVALID_KEY);
  let owner = keys.get(key);
  if (!owner) {
    owner = resolveApiKey(options.services, key);
    keys.set(key, owner);
  }
  let session: SessionInfo;
  try {
    session = await owner;
  } catch (error) {
    if (error instanceof GrpcCallError && error.code === status.RESOURCE_EXHAUSTED) {
      throw new ActionFailed(`This API key is over its limit: ${error.message}`);
    }
    if (error instanceof GrpcCallError && error.code === status.UNAUTHENTICATED) throw new ActionFailed(INVALID_KEY);
    throw error;
  }
  if (session.user.banned) throw new ActionFailed(INVALID_KEY);
  if (session.scopes && !(session.scopes.includes('read') && session.scopes.includes('write'))) {
    throw new ActionFailed(ANKI_TOOLS_SCOPES);
  }
  const decision = await options.rateLimits.byUser(session.caller.userId, [`ankiConnect.${action || 'unknown'}`]);
  if (!decision.allowed) {
    throw new ActionFailed(`Too many requests: try again in ${decision.retryAfterSeconds} seconds.`);
  }
  return session;
}

/** An action on the key owner's cards, answered by the cards service. */
async function act(
  { services, live }: Options,
  req: Request,
  session: SessionInfo,
  action: string,
  params: Record<string, unknown>,
  exchange: Exchange,
): Promise<unknown> {
  if (action === '') throw new ActionFailed(UNSUPPORTED_ACTION);
  let response: ActResponse;
  try {
    await handOffFiles(services, session, action, params, exchange.files);
  } catch (error) {
    if (error instanceof FileRefused) throw new ActionFailed(error.message);
    throw error;
  }
  try {
    const token = await services.signer.sign(session.caller, AUDIENCES.ankiConnect);
    response = await unary(
      services.ankiConnect,
      services.ankiConnect.act,
      { action, paramsJson: JSON.stringify(params) },
      { token, timeoutMs: ACTION_TIMEOUT_MS },
    );
  } catch (error) {
    if (error instanceof GrpcCallError && error.reason === 'ANKI_CONNECT') throw new ActionFailed(error.message);
    req.log.warn({ err: error, action }, 'AnkiConnect action could not be answered');
    throw new ActionFailed(SERVICE_TROUBLE);
  }
  const result: unknown = JSON.parse(response.resultJson);
  if (action === 'guiBrowse' && live) {
    await live
      .browse(session.caller.userId, typeof params.query === 'string' ? params.query : '')
      .catch((error: unknown) => {
        req.log.warn({ err: error }, 'guiBrowse could not reach the open tabs');
      });
  }
  if (action === 'retrieveMediaFile' && typeof result === 'string') {
    // The file's bytes go beside the reply, which writes them in base64 (in the worker when large).
    const bytes = await fileBytes(services, session, result);
    if (!bytes) return false;
    exchange.replyFiles.push(bytes);
    return { [FILE_MARK]: exchange.replyFiles.length - 1 };
  }
  return result;
}
