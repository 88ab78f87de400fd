import { retryWhileBusy } from './sqlite';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

describe('retryWhileBusy (start-up of several processes on one data directory)', () => {
  it('runs the step again while the file is busy, then returns its result', () => {
    let calls = 0;
    const result = retryWhileBusy(() => {
      calls += 1;
      if (calls < 3) throw busy();
      return 'open';
    }, 5_000);
    expect(result).toBe('open');
    expect(calls).toBe(3);
  });

  it('does not retry other errors', () => {
    let calls = 0;
    expect(() =>
      retryWhileBusy(() => {
        calls += 1;
        throw Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' });
      }, 5_000),
    ).toThrow('file is not a database');
    expect(calls).toBe(1);
  });

  it('gives up with the busy error once the budget is spent', () => {
    const started = Date.now();
    expect(() =>
      retryWhileBusy(() => {
        throw busy();
      }, 200),
    ).toThrow('database is locked');
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });
});
