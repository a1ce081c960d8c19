// ProposeOcclusions: the shapes of an image occlusion card proposed over the caller's picture, for the learner to
// correct before saving (the card editor's "Suggest shapes"). The picture is checked (size, and its first bytes:
// JPEG, PNG or WebP), the plan's limit asked and OCCLUSION_PROPOSALS_MAX cards reserved, then the generator runs
// (Bedrock reads the picture; the offline one finds the regions that look like labels in a reader process, where
// sharp decodes it: reader-process.ts). Each raw shape is checked and kept inside the picture; the proposal then
// settles to the shapes delivered, each counted as a generated card, nothing when none.
import { randomUUID } from 'node:crypto';
import {
  AI_REASONS,
  OCCLUSION_PICTURE_MAX_BYTES,
  OCCLUSION_PROPOSALS_MAX,
  type ProposedShape,
  proposedShape,
  proposeOcclusionsInput,
} from '@engram/contracts/ai';
import { Invalid, Unavailable } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { ProposeOcclusionsRequest, ProposeOcclusionsResponse } from '@engram/proto/ai/v1/ai';
import type { AiDeps } from '../deps.js';
import type { ShapeRequest } from '../generators/generator.js';
import { recordGeneration } from '../metrics.js';
import { planOf } from '../plans.js';
import { refusal } from '../uploads/file-text.js';
import { reserve, runDeadline, settle, startingOutcome } from '../usage.js';

/** A picture's format by its first bytes (never by what the caller says it is). */
export function pictureFormat(bytes: Uint8Array): ShapeRequest['format'] | undefined {
  const starts = (...signature: number[]) => signature.every((byte, at) => bytes[at] === byte);
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP') return 'webp';
  return undefined;
}

/** A raw shape as a box inside the picture, of some size, or nothing. */
export function acceptShape(raw: unknown): ProposedShape | undefined {
  const parsed = proposedShape.safeParse(raw);
  if (!parsed.success) return undefined;
  const { label, left, top } = parsed.data;
  const width = Math.min(parsed.data.width, 1 - left);
  const height = Math.min(parsed.data.height, 1 - top);
  if (width < 0.005 || height < 0.005 || width * height > 0.5) return undefined;
  return { label, left, top, width, height };
}

export function proposeOcclusions(deps: AiDeps) {
  return async (request: ProposeOcclusionsRequest, ctx: CallContext): Promise<ProposeOcclusionsResponse> => {
    const { language } = parseInput(proposeOcclusionsInput, { language: request.language.trim() || undefined });
    const picture = request.picture;
    if (picture.byteLength === 0) throw new Invalid('Choose a picture first.', AI_REASONS.unsupportedFile);
    if (picture.byteLength > OCCLUSION_PICTURE_MAX_BYTES) {
      throw new Invalid(
        `The picture is larger than ${OCCLUSION_PICTURE_MAX_BYTES / 1024 / 1024} MB.`,
        AI_REASONS.fileTooLarge,
      );
    }
    const format = pictureFormat(picture);
    if (!format) throw new Invalid('The picture is not a JPEG, PNG or WebP image.', AI_REASONS.unsupportedFile);
    const plan = await planOf(deps.db, deps.billing, ctx);
    const { generator } = deps;
    const id = randomUUID();
    await reserve(
      deps.db,
      {
        id,
        userId: ctx.caller.userId,
        generator: generator.name,
        model: generator.model,
        requested: OCCLUSION_PROPOSALS_MAX,
      },
      plan,
    );
    const outcome = startingOutcome();
    const log = ctx.logger.child({ generation: id, generator: generator.name });
    try {
      const deadline = runDeadline(deps.generationTimeoutMs, ctx);
      const regions = async () => {
        const read = await deps.uploads.reader.pool.read(
          ctx.caller.userId,
          { kind: 'picture', content: picture, maxRegions: OCCLUSION_PROPOSALS_MAX },
          ctx.signal,
        );
        if (!read.ok) throw refusal(read, deps.uploads.reader.limits);
        return 'regions' in read ? read.regions : [];
      };
      let answer: Awaited<ReturnType<typeof generator.proposeShapes>>;
      try {
        answer = await generator.proposeShapes({ picture, format, language, deadline, regions }, ctx.signal);
      } catch (error) {
        if (error instanceof Invalid || ctx.signal.aborted) throw error;
        outcome.error = error instanceof Error ? error.message : 'the generator failed';
        log.warn({ err: error }, 'occlusion proposal failed');
        throw new Unavailable(
          'The card generator is unavailable right now. Please try again in a moment.',
          AI_REASONS.modelUnavailable,
        );
      }
      const shapes: ProposedShape[] = [];
      for (const raw of answer.shapes) {
        const shape = shapes.length < OCCLUSION_PROPOSALS_MAX ? acceptShape(raw) : undefined;
        if (shape) shapes.push(shape);
        else outcome.dropped += 1;
      }
      Object.assign(outcome, answer.usage, { status: 'complete', delivered: shapes.length });
      log.info({ delivered: shapes.length, dropped: outcome.dropped }, 'occlusion shapes proposed');
      return { shapes, generator: generator.name };
    } finally {
      if (outcome.status === 'failed' && ctx.signal.aborted) outcome.status = 'cancelled';
      if (await settle(deps.db, id, outcome).catch(() => false)) recordGeneration(generator.name, outcome);
    }
  };
}
