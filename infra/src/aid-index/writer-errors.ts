/**
 * An error of the writer thread, as it crosses to the adapter's thread: its kind and code travel with
 * its message, so that callers tell a record's own fault (a TypeError of the checks, SQLite's
 * constraint codes: set aside) from a passing one (busy, I/O: retried) the way they would on one
 * thread. A plain Error in their place made every refused aid a passing fault, retried for ever.
 */
export interface WriterError {
  name: string;
  message: string;
  code?: string;
}

export function toWriterError(error: unknown): WriterError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) };
}

const KINDS: Record<string, ErrorConstructor> = { TypeError, RangeError, SyntaxError };

export function fromWriterError({ name, message, code }: WriterError): Error {
  const error = new (KINDS[name] ?? Error)(message);
  error.name = name;
  if (code !== undefined) Object.assign(error, { code });
  return error;
}
