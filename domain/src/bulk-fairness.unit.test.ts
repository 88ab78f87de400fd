import {
  assertBulkJobAllowed,
  BULK_MAX_FREE_JOBS_PER_DAY,
  BULK_MAX_OPEN_JOBS,
  BULK_RESULT_QUOTA_BYTES,
  nextFairJob,
  type BulkJobFacts,
} from './bulk-fairness';

// 10 March 2026, 11:00 in Rome
const NOW = Date.parse('2026-03-10T10:00:00Z');
const job = (facts: Partial<BulkJobFacts>): BulkJobFacts => ({
  status: 'COMPLETED',
  clientId: 'client-1',
  cost: 3,
  requestedAt: '2026-03-10T08:00:00.000Z',
  expiresAt: '2026-04-09T08:00:00.000Z',
  resultBytes: 1_000,
  ...facts,
});
const times = (n: number, facts: Partial<BulkJobFacts>) => Array.from({ length: n }, () => job(facts));
const refusal = (jobs: BulkJobFacts[], request: { metered: boolean; cost: number }) => {
  try {
    assertBulkJobAllowed(jobs, { ...request, now: NOW });
    return null;
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('who may request another bulk job', () => {
  it('allows up to 3 jobs queued, running or awaiting their charge, then answers B010', () => {
    expect(BULK_MAX_OPEN_JOBS).toBe(3);
    const open = [job({ status: 'QUEUED' }), job({ status: 'RUNNING' })];
    expect(refusal(open, { metered: true, cost: 1 })).toBeNull();
    expect(refusal([...open, job({ status: 'AWAITING_CHARGE' })], { metered: true, cost: 1 })).toBe('B010');
    expect(refusal([...open, job({ status: 'QUEUED' })], { metered: false, cost: 0 })).toBe('B010');
    // ended jobs do not count
    expect(refusal([...open, ...times(10, { status: 'FAILED' })], { metered: true, cost: 1 })).toBeNull();
  });

  it('allows a client 5 free jobs a Rome day, counting neither paid, failed nor yesterday’s', () => {
    expect(BULK_MAX_FREE_JOBS_PER_DAY).toBe(5);
    const four = times(4, { cost: 0 });
    const others = [
      job({ cost: 2 }),
      job({ cost: 0, status: 'FAILED' }),
      // 9 March 23:30 in Rome: yesterday
      job({ cost: 0, requestedAt: '2026-03-09T22:30:00.000Z' }),
    ];
    expect(refusal([...four, ...others], { metered: true, cost: 0 })).toBeNull();
    const five = [...four, job({ cost: 0, requestedAt: '2026-03-09T23:30:00.000Z' })]; // 00:30 today in Rome
    expect(refusal([...five, ...others], { metered: true, cost: 0 })).toBe('B011');
    // a paid job is still allowed, and an ADMIN's jobs are not metered
    expect(refusal(five, { metered: true, cost: 1 })).toBeNull();
    expect(
      refusal(
        five.map((j) => ({ ...j, clientId: null })),
        { metered: false, cost: 0 },
      ),
    ).toBeNull();
  });

  it('counts towards a client’s 5 free jobs neither jobs run for no client nor a job without a request time', () => {
    const four = times(4, { cost: 0 });
    expect(refusal([...four, job({ cost: 0, clientId: null })], { metered: true, cost: 0 })).toBeNull();
    expect(refusal([...four, job({ cost: 0, requestedAt: '' })], { metered: true, cost: 0 })).toBeNull();
  });

  it('refuses with B012 while the results kept reach 500 MB, expired ones aside', () => {
    expect(BULK_RESULT_QUOTA_BYTES).toBe(500 * 1024 * 1024);
    const half = BULK_RESULT_QUOTA_BYTES / 2;
    expect(
      refusal([job({ resultBytes: half }), job({ resultBytes: half - 1 })], { metered: true, cost: 1 }),
    ).toBeNull();
    expect(
      refusal([job({ resultBytes: half }), job({ resultBytes: half })], { metered: true, cost: 1 }),
    ).toBe('B012');
    const expired = job({ resultBytes: half, expiresAt: '2026-03-10T09:59:59.000Z' });
    expect(refusal([job({ resultBytes: half }), expired], { metered: true, cost: 1 })).toBeNull();
  });
});

describe('the job the runner takes next', () => {
  const waiting = (id: string, userId: string, requestedAt: string) => ({ id, userId, requestedAt });

  it('takes the user served least recently first, then the earliest request', () => {
    const jobs = [
      waiting('a1', 'anna', '2026-03-10T08:00:00Z'),
      waiting('a2', 'anna', '2026-03-10T08:00:01Z'),
      waiting('b1', 'bruno', '2026-03-10T08:00:05Z'),
    ];
    expect(nextFairJob(jobs, new Map())?.id).toBe('a1');
    expect(nextFairJob(jobs, new Map([['anna', 100]]))?.id).toBe('b1');
    expect(
      nextFairJob(
        jobs,
        new Map([
          ['anna', 100],
          ['bruno', 200],
        ]),
      )?.id,
    ).toBe('a1');
    expect(nextFairJob([], new Map())).toBeNull();
  });

  it('takes the earliest request whatever the order of the waiting list, the first listed on a tie', () => {
    const jobs = [
      waiting('a2', 'anna', '2026-03-10T08:00:01Z'),
      waiting('a1', 'anna', '2026-03-10T08:00:00Z'),
      waiting('a1bis', 'anna', '2026-03-10T08:00:00Z'),
    ];
    expect(nextFairJob(jobs, new Map())?.id).toBe('a1');
  });

  it('serves a user never served before one served already, even when that one asked earlier', () => {
    const jobs = [
      waiting('b1', 'bruno', '2026-03-10T08:00:05Z'),
      waiting('a1', 'anna', '2026-03-10T08:00:00Z'),
    ];
    expect(nextFairJob(jobs, new Map([['anna', 100]]))?.id).toBe('b1');
  });

  it('serves 30 jobs of one user and one of another in turns: the other waits one job at most', () => {
    const queue = [
      ...Array.from({ length: 30 }, (_, i) =>
        waiting(`g${i}`, 'greedy', `2026-03-10T08:00:${String(i).padStart(2, '0')}Z`),
      ),
      waiting('m1', 'modest', '2026-03-10T08:01:00Z'),
    ];
    const served = new Map<string, number>();
    const order: string[] = [];
    for (let turn = 0; queue.length > 0; turn++) {
      const next = nextFairJob(queue, served)!;
      served.set(next.userId, turn);
      order.push(next.id);
      queue.splice(queue.indexOf(next), 1);
    }
    expect(order.indexOf('m1')).toBe(1);
  });
});
