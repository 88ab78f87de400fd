import { isPoisonError } from '../dead-letters';
import { fromWriterError, toWriterError } from './writer-errors';

/** As the reply crosses from the writer thread: structured-cloned. */
const crossed = (error: unknown) => fromWriterError(structuredClone(toWriterError(error)));

describe("the writer thread's errors on the adapter's thread", () => {
  it('keep their kind and message: an aid the checks refuse is still set aside', () => {
    const error = crossed(new TypeError('dataConcessione is not an ISO date: 10/01/2024'));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('dataConcessione is not an ISO date: 10/01/2024');
    expect(isPoisonError(error)).toBe(true);
  });

  it("keep SQLite's code: a constraint is the record's fault, a busy or full disk is retried", () => {
    const sqlite = (code: string) => Object.assign(new Error('refused'), { name: 'SqliteError', code });
    expect(isPoisonError(crossed(sqlite('SQLITE_CONSTRAINT_NOTNULL')))).toBe(true);
    expect(isPoisonError(crossed(sqlite('SQLITE_BUSY')))).toBe(false);
    expect(isPoisonError(crossed(sqlite('SQLITE_FULL')))).toBe(false);
    expect(crossed(sqlite('SQLITE_FULL'))).toMatchObject({ name: 'SqliteError', code: 'SQLITE_FULL' });
  });

  it('an error of any other kind, or a thrown value that is not an error, is retried', () => {
    expect(isPoisonError(crossed(new Error('worker lost its file')))).toBe(false);
    expect(crossed('oops')).toMatchObject({ name: 'Error', message: 'oops' });
  });
});
