// Upload: keeps the text of a .md, .txt or PDF file for a day, for Generate's file_id, within the
// learner's upload quota. The file is read by the reader pool, in a process of its own with memory and
// time limits. Nothing is kept of a file that is refused; expired files are removed by the sweeper.
import { randomUUID } from 'node:crypto';
import type { CallContext } from '@engram/kit/grpc/server';
import type { UploadRequest, UploadResponse } from '@engram/proto/ai/v1/ai';
import type { AiDeps } from '../deps.js';
import { checkedUpload, fileText } from '../uploads/file-text.js';
import { checkUploadQuota, keepUpload } from '../uploads/quota.js';

export function upload({ db, uploads }: AiDeps) {
  return async (request: UploadRequest, ctx: CallContext): Promise<UploadResponse> => {
    const { userId } = ctx.caller;
    const fileName = request.fileName.trim().slice(0, 200) || 'notes.txt';
    const bytes = request.content.byteLength;
    checkedUpload(fileName, request.content);
    await checkUploadQuota(db, userId, bytes, uploads.quota);
    const { text, pages } = await fileText(uploads.reader, userId, fileName, request.content, ctx.signal);
    const id = randomUUID();
    await keepUpload(db, { id, userId, fileName, text, pages, bytes }, uploads.quota);
    ctx.logger.info({ fileId: id, characters: text.length, pages, bytes }, 'file uploaded');
    return { fileId: id, fileName, characters: text.length, pages };
  };
}
