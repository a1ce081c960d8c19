// Bounds request bodies before anything reads them: a declared Content-Length over the limit is answered
// 413 at once and the bytes are discarded unread; a chunked body is counted by tRPC's own maxBodySize.
import type { NextFunction, Request, Response } from 'express';

export function bodyLimit(maxBytes: number) {
  return (req: Request, res: Response, next: NextFunction) => {
    const declared = Number(req.get('content-length') ?? 0);
    if (!(declared > maxBytes)) return next();
    req.log.warn({ contentLength: declared, maxBytes }, 'request body too large');
    res.status(413).json({
      code: 'PAYLOAD_TOO_LARGE',
      message: `The request body is too large (at most ${maxBytes} bytes).`,
    });
    // Discarded unread (Node bounds how long a client may take with its requestTimeout).
    req.resume();
  };
}
