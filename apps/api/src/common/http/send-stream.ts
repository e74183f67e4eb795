import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';

export interface StreamAnswer {
  /** The Content-Type. */
  type: string;
  /** Offered to the browser as a download under this name (Content-Disposition), else shown inline. */
  filename?: string;
  /** What is streamed, for the log line when it fails after the status was sent. */
  what: string;
}

/**
 * Answers 200 with `chunks` as they are made (the project exports, the results download, the account's
 * data). Once the first chunk is out the status cannot change, so a failure mid-stream ends the body
 * early and is logged; the client sees a truncated file rather than an error answer.
 */
export async function sendStream(reply: FastifyReply, chunks: AsyncIterable<string>, answer: StreamAnswer): Promise<void> {
  const stream = Readable.from(chunks, { objectMode: false });
  stream.on('error', (error) => reply.log.error({ err: error }, `${answer.what} failed mid-stream`));
  reply.type(answer.type);
  if (answer.filename) reply.header('content-disposition', `attachment; filename="${answer.filename}"`);
  await reply.send(stream);
}
