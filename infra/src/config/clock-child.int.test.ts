import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { PINNED_TEST_INSTANT, TEST_CLOCK_SHIFT_ENV, TEST_NOW_ENV } from './clock';

/** The clock of a process a test starts, as the e2e suites start the services (needs infra's build). */
describe('the clock of a started process', () => {
  const realNow = () => performance.timeOrigin + performance.now();

  it('moves the processes a test starts too, unless they are pinned: read in a process of their own', () => {
    // a plain Node process, as the e2e suites start the services: nothing of jest's shifted Date in it
    const clockOfChild = (env: Record<string, string>) =>
      Number(
        execFileSync(
          process.execPath,
          [
            '-e',
            `const { processClock } = require(${JSON.stringify(path.join(__dirname, '..', '..', 'dist', 'config', 'clock.js'))});` +
              'process.stdout.write(String(processClock(process.env)().getTime()));',
          ],
          { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' },
        ),
      );
    const before = realNow();
    const ahead = clockOfChild({ NODE_ENV: 'test', [TEST_CLOCK_SHIFT_ENV]: '365' }) - before;
    expect(ahead / 86_400_000).toBeGreaterThan(364.9);
    expect(ahead / 86_400_000).toBeLessThan(366);
    // pinned: the pinned instant, however far the suite's horizon is
    const pinned = clockOfChild({
      NODE_ENV: 'test',
      [TEST_CLOCK_SHIFT_ENV]: '365',
      [TEST_NOW_ENV]: PINNED_TEST_INSTANT,
    });
    expect(pinned - Date.parse(PINNED_TEST_INSTANT)).toBeGreaterThanOrEqual(0);
    expect(pinned - Date.parse(PINNED_TEST_INSTANT)).toBeLessThan(60_000);
    // outside tests, the real time
    expect(Math.abs(clockOfChild({ [TEST_CLOCK_SHIFT_ENV]: '365' }) - realNow())).toBeLessThan(60_000);
  });
});
