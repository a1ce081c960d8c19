// CreatePreset, UpdatePreset and DeletePreset: the learner's presets and the tags each schedules. A tag is in at
// most one preset, so naming it in one takes it from any other; the default preset schedules every card no other
// preset takes and has no tags. A new preset starts as the default preset's options (its parameters too, with
// when they were adopted), but for what the request names. A learner keeps at most MAX_PRESETS; one learner's
// preset writes run one at a time (a transaction lock), so that cap holds. Another learner's preset or tag is
// not found.
import {
  createPresetInput,
  deletePresetInput,
  MAX_PRESETS,
  PRESET_REASONS,
  type presetFields,
  updatePresetInput,
} from '@engram/contracts/scheduling';
import { FailedPrecondition, Invalid } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { DeletePresetRequest, DeletePresetResponse, Preset, PresetRequest } from '@engram/proto/cards/v1/settings';
import type { Stores } from '../db.js';
import { assertOwnTags } from '../domain/owned-tags.js';
import type { Prisma } from '../generated/prisma/client.js';
import { defaultPresetId } from '../learner/default-preset.js';
import { PRESET_NOT_FOUND, presetMessage, WITH_TAGS } from '../presets/presets.js';

type Tx = Prisma.TransactionClient;

const FIELD_NAMES: Record<string, keyof typeof presetFields> = {
  name: 'name',
  tag_ids: 'tagIds',
  desired_retention: 'desiredRetention',
  new_per_day: 'newPerDay',
  reviews_per_day: 'reviewsPerDay',
};

/** The options a request names, by their contract names. */
const named = (request: PresetRequest) =>
  Object.fromEntries(
    request.fields.flatMap((field) => {
      const key = FIELD_NAMES[field];
      return key && request.preset ? [[key, request.preset[key]]] : [];
    }),
  );

const DEFAULT_HAS_NO_TAGS = () =>
  new Invalid(
    'The default preset schedules every card no other preset takes; it has no tags.',
    PRESET_REASONS.defaultHasNoTags,
  );

/** Serialises one learner's preset writes: the cap on presets and the tags' moves see each other. */
const lockPresets = (tx: Tx, ownerId: string) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`cards-presets:${ownerId}`}))`;

/** Gives the tags to `presetId`, taking them from any other preset; the preset's other tags are let go. */
async function assignTags(tx: Tx, presetId: string, tagIds: string[]) {
  await tx.presetTag.deleteMany({ where: { presetId, tagId: { notIn: tagIds } } });
  if (tagIds.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO preset_tags (tag_id, preset_id) SELECT unnest(${tagIds}::uuid[]), ${presetId}::uuid
    ON CONFLICT (tag_id) DO UPDATE SET preset_id = EXCLUDED.preset_id`;
}

export function createPreset({ db, pool }: Stores) {
  return async (request: PresetRequest, ctx: CallContext): Promise<Preset> => {
    const ownerId = ctx.caller.userId;
    const input = parseInput(createPresetInput, named(request));
    const defaultId = await defaultPresetId(pool, ownerId);
    const created = await db.$transaction(async (tx) => {
      await lockPresets(tx, ownerId);
      if ((await tx.preset.count({ where: { ownerId } })) >= MAX_PRESETS) {
        throw new FailedPrecondition(`A learner keeps at most ${MAX_PRESETS} presets.`, PRESET_REASONS.tooMany);
      }
      await assertOwnTags(tx, ownerId, input.tagIds);
      const base = await tx.preset.findUniqueOrThrow({ where: { id: defaultId } });
      const preset = await tx.preset.create({
        data: {
          ownerId,
          name: input.name,
          desiredRetention: input.desiredRetention ?? base.desiredRetention,
          parameters: base.parameters,
          optimizedAt: base.optimizedAt,
          newPerDay: input.newPerDay ?? base.newPerDay,
          reviewsPerDay: input.reviewsPerDay ?? base.reviewsPerDay,
        },
      });
      await assignTags(tx, preset.id, input.tagIds);
      return tx.preset.findUniqueOrThrow({ where: { id: preset.id }, include: WITH_TAGS });
    });
    ctx.logger.info({ presetId: created.id }, 'preset created');
    return presetMessage(created);
  };
}

export function updatePreset({ db, pool }: Stores) {
  return async (request: PresetRequest, ctx: CallContext): Promise<Preset> => {
    const ownerId = ctx.caller.userId;
    const { presetId, tagIds, ...changes } = parseInput(updatePresetInput, {
      ...named(request),
      presetId: request.presetId || undefined,
    });
    const id = presetId ?? (await defaultPresetId(pool, ownerId));
    const updated = await db.$transaction(async (tx) => {
      await lockPresets(tx, ownerId);
      const preset = await tx.preset.findFirst({ where: { id, ownerId } });
      if (!preset) throw PRESET_NOT_FOUND();
      if (tagIds !== undefined) {
        if (preset.isDefault && tagIds.length > 0) throw DEFAULT_HAS_NO_TAGS();
        await assertOwnTags(tx, ownerId, tagIds);
        await assignTags(tx, id, tagIds);
      }
      return tx.preset.update({ where: { id }, data: changes, include: WITH_TAGS });
    });
    return presetMessage(updated);
  };
}

export function deletePreset({ db }: Stores) {
  return async (request: DeletePresetRequest, ctx: CallContext): Promise<DeletePresetResponse> => {
    const ownerId = ctx.caller.userId;
    const { presetId } = parseInput(deletePresetInput, { presetId: request.presetId });
    await db.$transaction(async (tx) => {
      await lockPresets(tx, ownerId);
      const preset = await tx.preset.findFirst({ where: { id: presetId, ownerId } });
      if (!preset) throw PRESET_NOT_FOUND();
      if (preset.isDefault) {
        throw new FailedPrecondition('The default preset cannot be deleted.', PRESET_REASONS.defaultKept);
      }
      // Its tags and optimizations go with it (cascades); its cards fall to the default preset.
      await tx.preset.delete({ where: { id: presetId } });
    });
    ctx.logger.info({ presetId }, 'preset deleted');
    return {};
  };
}
