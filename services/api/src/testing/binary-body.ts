/** supertest's parser for a file answer (xlsx, pdf): the body as the bytes sent (tests only). */
import type request from 'supertest';

export function binaryBody(
  res: request.Response,
  callback: (error: Error | null, body: Buffer) => void,
): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}
