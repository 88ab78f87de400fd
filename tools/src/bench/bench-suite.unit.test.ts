import { alternating, describeSpread, loadLine, rotating, spread } from './bench-suite';

describe('bench sampling', () => {
  it('summarises samples as min / median / max', () => {
    expect(spread([30, 10, 20])).toEqual({ min: 10, median: 20, max: 30, count: 3 });
    expect(describeSpread(spread([1.25, 1.5, 9]), 2)).toBe('min 1.25 / median 1.5 / max 9 (3 samples)');
  });

  it('alternates which of baseline and subject runs first', async () => {
    const order: string[] = [];
    const result = await alternating(
      3,
      async (i) => {
        order.push(`baseline ${i}`);
        return i;
      },
      async (i) => {
        order.push(`subject ${i}`);
        return i * 10;
      },
    );
    expect(order).toEqual(['baseline 0', 'subject 0', 'subject 1', 'baseline 1', 'baseline 2', 'subject 2']);
    expect(result).toEqual({ baseline: [0, 1, 2], subject: [0, 10, 20] });
  });

  it('rotates which of several sides runs first, keeping the samples of each side apart', async () => {
    const order: string[] = [];
    const side = (name: string) => async (i: number) => {
      order.push(`${name}${i}`);
      return `${name}${i}`;
    };
    const result = await rotating(4, [side('a'), side('b'), side('c')]);
    expect(order).toEqual(['a0', 'b0', 'c0', 'b1', 'c1', 'a1', 'c2', 'a2', 'b2', 'a3', 'b3', 'c3']);
    expect(result).toEqual([
      ['a0', 'a1', 'a2', 'a3'],
      ['b0', 'b1', 'b2', 'b3'],
      ['c0', 'c1', 'c2', 'c3'],
    ]);
  });
});

describe('the load printed with each table', () => {
  it('says whether the machine was idle before the suite, with both averages and the cores', () => {
    expect(loadLine('register', { start: 0.1, end: 2.2 }, 2)).toBe(
      'register: machine load 0.10 before (idle), 2.20 at the end (1-minute average, 2 cores)',
    );
    expect(loadLine('search', { start: 1.2, end: 1.9 }, 2)).toContain('(partly busy)');
    expect(loadLine('search', { start: 4.5, end: 3 }, 2)).toContain('(busy: figures slower than idle)');
  });
});
