// Act: one AnkiConnect action on the caller's cards (anki-connect/actions.ts), its params and result as JSON.
// Engram's own refusals inside an action (Invalid, NotFound, …) reach the tool as the action's error: the
// gateway hands on any FAILED_PRECONDITION with reason ANKI_CONNECT, so they are given that reason here.
import { DomainError } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import type { ActRequest, ActResponse } from '@engram/proto/cards/v1/anki_connect';
import { runAction } from '../anki-connect/actions.js';
import { ankiError } from '../anki-connect/anki-error.js';
import type { AnkiConnectDeps } from '../anki-connect/notes-add.js';

function paramsOf(json: string): Record<string, unknown> {
  if (json.trim() === '') return {};
  let params: unknown;
  try {
    params = JSON.parse(json);
  } catch {
    throw ankiError('params must be JSON');
  }
  if (params === null) return {};
  if (typeof params !== 'object' || Array.isArray(params)) throw ankiError('params must be an object');
  return params as Record<string, unknown>;
}

export function act(deps: AnkiConnectDeps) {
  return async (request: ActRequest, ctx: CallContext): Promise<ActResponse> => {
    const params = paramsOf(request.paramsJson);
    let result: unknown;
    try {
      result = await runAction(deps, ctx, request.action, params);
    } catch (error) {
      if (error instanceof DomainError && error.reason !== 'ANKI_CONNECT') throw ankiError(error.message);
      throw error;
    }
    return { resultJson: JSON.stringify(result ?? null) };
  };
}
