import type { Readable } from 'node:stream';
import { errorCodes, type FastifyRequest } from 'fastify';
import { TextChunks } from '../engine/extract/source.ts';

/**
 * A request body read as strict UTF-8 text (invalid UTF-8 refused, never replaced), each
 * chunk decoded as it arrives: fastify's `parseAs` joins the chunks and decodes the whole at
 * the end, one step that held the event loop 15–30 ms for an 11 MB import. The limits are
 * fastify's own (its rawBody): a declared or actual length past `limit` is 413, a body
 * shorter or longer than its content-length is 400.
 */
export function readBodyText(request: FastifyRequest, payload: Readable, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    if (declared > limit) return reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    const text = new TextChunks('request body');
    const pieces: string[] = [];
    let received = 0;
    const finish = (error: Error | undefined, body?: string) => {
      payload.off('data', onData).off('end', onEnd).off('error', onError);
      if (error) reject(error);
      else resolve(body!);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      try {
        pieces.push(text.push(chunk));
      } catch (refused) {
        finish(refused as Error);
      }
    };
    const onEnd = () => {
      if (!Number.isNaN(declared) && received !== declared) return finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      try {
        pieces.push(text.end());
      } catch (refused) {
        return finish(refused as Error);
      }
      finish(undefined, pieces.join(''));
    };
    const onError = (error: Error & { statusCode?: number }) => {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
      finish(error);
    };
    payload.on('data', onData).on('end', onEnd).on('error', onError);
    payload.resume();
  });
}
