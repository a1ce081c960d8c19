// The cards service's object store of card files, imports and exports: S3, or, outside production without
// MEDIA_S3_BUCKET, the local S3 stand-in. The stand-in comes from @engram/stand-ins, a development package
// loaded only then, so no production image holds it (docs/architecture.md#media-storage).
import type { Logger } from '@engram/kit/logger';
import { createObjectStore, type OpenStandIn, type StorageSettings } from '@engram/kit/storage';

async function standIn(): Promise<OpenStandIn> {
  try {
    return (await import('@engram/stand-ins/s3')).openS3StandIn;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error('MEDIA_S3_BUCKET is not set, and this installation has no local S3 stand-in: set MEDIA_S3_BUCKET');
  }
}

export async function openObjectStore(config: { storage: StorageSettings; NODE_ENV: string }, logger: Logger) {
  const openStandIn = config.storage.kind === 'stand-in' ? await standIn() : undefined;
  return createObjectStore(config.storage, { nodeEnv: config.NODE_ENV, logger, openStandIn });
}
