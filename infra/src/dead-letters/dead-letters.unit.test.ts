import { isPoisonError, RecordRejectedError } from '.';

const named = (name: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(`${name} happened`), { name, ...extra });

describe('which failures set a record aside', () => {
  it('sets aside what the record itself causes on every try', () => {
    expect(isPoisonError(new SyntaxError('Unexpected end of JSON input'))).toBe(true);
    expect(isPoisonError(new TypeError('Invalid aid record 2: dataConcessione missing'))).toBe(true);
    expect(isPoisonError(new RecordRejectedError('mapper_parsing_exception'))).toBe(true);
    expect(isPoisonError(named('SqliteError', { code: 'SQLITE_CONSTRAINT_NOTNULL' }))).toBe(true);
  });

  it('retries an engine that is down, busy or restarting, and any error nobody classified', () => {
    // Elasticsearch during a rolling restart: 503 and 429 answers, a bulk that keeps being rejected
    expect(isPoisonError(named('ResponseError', { meta: { statusCode: 503 } }))).toBe(false);
    expect(isPoisonError(new Error('Elasticsearch kept rejecting 5000 aids (first: 1)'))).toBe(false);
    expect(isPoisonError(named('ConnectionError'))).toBe(false);
    expect(isPoisonError(named('SqliteError', { code: 'SQLITE_BUSY' }))).toBe(false);
    expect(isPoisonError(named('KafkaJSConnectionError'))).toBe(false);
    expect(isPoisonError(named('SomeDriverError'))).toBe(false);
    expect(isPoisonError('a string thrown')).toBe(false);
    expect(isPoisonError(undefined)).toBe(false);
  });
});
