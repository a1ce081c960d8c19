// Sending a learner's file to the object store: media.createUpload gives a presigned PUT, the browser sends
// the bytes straight there (never through Engram's servers, so a large collection costs them nothing), and a
// card's file is then kept with media.finishUpload (checked and re-encoded by cards). Progress is reported
// as the bytes go, for the import screen's bar.
import type { MediaJson } from '@engram/gateway/router';
import { m } from '../../lib/i18n';
import { trpcClient } from '../../lib/trpc';
import { typeToSend } from './type-to-send';

export type { MediaJson };

/** What a failed upload says to the learner, beside the refusals the gateway gives in its own words. */
export class UploadFailed extends Error {}

/** PUTs `file` to `url` with `headers`, telling `onProgress` the share sent (0..1). */
function put(url: string, headers: Record<string, string>, file: File, onProgress?: (share: number) => void) {
  return new Promise<void>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) {
      // The browser sets the length itself and refuses to be told it.
      if (name.toLowerCase() !== 'content-length') request.setRequestHeader(name, value);
    }
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    };
    request.onload = () =>
      request.status >= 200 && request.status < 300 ? resolve() : reject(new UploadFailed(m.media_upload_failed()));
    request.onerror = () => reject(new UploadFailed(m.media_upload_failed()));
    request.send(file);
  });
}

/** Sends `file` to the store for `purpose`; resolves with the upload's id once every byte is there. */
export async function sendToStore(
  file: File,
  purpose: 'card' | 'import',
  onProgress?: (share: number) => void,
): Promise<string> {
  const slot = await trpcClient.media.createUpload.mutate({
    name: file.name,
    size: file.size,
    contentType: typeToSend(file),
    purpose,
  });
  await put(slot.url, slot.headers, file, onProgress);
  onProgress?.(1);
  return slot.uploadId;
}

/** Sends and keeps a card's image or sound; resolves with the kept file. */
export async function keepCardFile(file: File): Promise<MediaJson> {
  const uploadId = await sendToStore(file, 'card');
  return trpcClient.media.finishUpload.mutate({ uploadId });
}
