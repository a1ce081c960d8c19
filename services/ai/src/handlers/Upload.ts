// Upload: keeps the text of a .md, .txt or PDF file for a day, for Generate's file_id. Nothing is kept
// of a file that is refused.
import { randomUUID } from 'node:crypto';
import type { CallContext } from '@engram/kit/grpc/server';
import type { UploadRequest, UploadResponse } from '@engram/proto/ai/v1/ai';
import type { AiDeps } from '../deps.js';
import { fileText } from '../domain/file-text.js';

export const UPLOAD_KEPT_MS = 86_400_000;

export function upload({ db }: AiDeps) {
  return async (request: UploadRequest, ctx: CallContext): Promise<UploadResponse> => {
    const fileName = request.fileName.trim().slice(0, 200) || 'notes.txt';
    const { text, pages } = await fileText(fileName, request.content);
    const id = randomUUID();
    await db.uploadedFile.create({ data: { id, userId: ctx.caller.userId, fileName, text, pages } });
    await db.uploadedFile.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - UPLOAD_KEPT_MS) } } });
    ctx.logger.info({ fileId: id, characters: text.length, pages }, 'file uploaded');
    return { fileId: id, fileName, characters: text.length, pages };
  };
}
