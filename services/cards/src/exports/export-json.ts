// An export row as ExportService answers it, with a fresh download link while its file is in the store.
import { EXPORT_LINK_MINUTES } from '@engram/contracts/exports';
import type { ObjectStore } from '@engram/kit/storage';
import type { Export as ProtoExport } from '@engram/proto/cards/v1/exports';
import type { Export } from '../generated/prisma/client.js';

export async function toProtoExport(row: Export, store: ObjectStore, now = new Date()): Promise<ProtoExport> {
  const expired = row.status === 'done' && row.expiresAt !== null && row.expiresAt <= now;
  const url =
    row.status === 'done' && !expired && row.objectKey
      ? await store.presignGet(row.objectKey, {
          expiresInSeconds: EXPORT_LINK_MINUTES * 60,
          downloadName: row.fileName,
        })
      : '';
  return {
    id: row.id,
    format: row.format,
    status: expired ? 'expired' : row.status,
    progressDone: row.progressDone,
    progressTotal: row.progressTotal,
    failure: row.failure ?? '',
    fileName: row.fileName,
    size: Number(row.size),
    url,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt ?? undefined,
    expiresAt: row.expiresAt ?? undefined,
  };
}
