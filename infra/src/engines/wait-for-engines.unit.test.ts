import { waitForEngines, type EngineWaitLog } from './wait-for-engines';

function recordingLog() {
  const warnings: { engine: string; attempt: number; retryInMs: number; reason: string }[] = [];
  const infos: { attempts: number }[] = [];
  const log: EngineWaitLog = {
    warn: (details) => warnings.push(details),
    info: (details) => infos.push(details),
  };
  return { log, warnings, infos };
}

describe('start-up while an engine is down', () => {
  it('waits with growing pauses until every engine answers, saying which one it waits for', async () => {
    let calls = 0;
    const probes = {
      eventStore: async () => undefined,
      documents: async () => {
        calls += 1;
        if (calls <= 3) throw new Error('connect ECONNREFUSED 10.0.0.5:27017');
      },
    };
    const pauses: number[] = [];
    const { log, warnings, infos } = recordingLog();
    await waitForEngines(probes, {
      log,
      policy: { initialDelayMs: 500, maxDelayMs: 1_500 },
      sleep: async (ms) => {
        pauses.push(ms);
      },
    });
    expect(pauses).toEqual([500, 1_000, 1_500]);
    expect(warnings.map((w) => [w.engine, w.attempt])).toEqual([
      ['documents', 1],
      ['documents', 2],
      ['documents', 3],
    ]);
    expect(warnings[0]!.reason).toMatch(/ECONNREFUSED/);
    expect(infos).toEqual([{ attempts: 4 }]);
  });

  it('starts at once, silently, when everything answers', async () => {
    const { log, warnings, infos } = recordingLog();
    await waitForEngines({ a: async () => 1 }, { log, sleep: () => Promise.reject(new Error('no pause')) });
    expect(warnings).toEqual([]);
    expect(infos).toEqual([]);
  });

  it('gives up after the attempts it was given, naming the engine', async () => {
    const { log } = recordingLog();
    await expect(
      waitForEngines(
        { aidIndex: () => Promise.reject(new Error('socket hang up')) },
        { log, maxAttempts: 2, sleep: async () => undefined },
      ),
    ).rejects.toThrow('aidIndex not reachable after 2 attempts: socket hang up');
  });
});
