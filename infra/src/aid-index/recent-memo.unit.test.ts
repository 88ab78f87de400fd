import { RecentMemo } from './recent-memo';

describe('the dictionaries’ memo', () => {
  it('keeps a text in use while millions of texts seen once pass through it', () => {
    const memo = new RecentMemo<string, number>(1_000);
    memo.set('measure', 1);
    for (let i = 0; i < 100_000; i++) {
      memo.set(`project ${i}`, i + 2);
      if (i % 500 === 0) expect(memo.get('measure')).toBe(1);
    }
    expect(memo.get('measure')).toBe(1);
    expect(memo.get('project 5')).toBeUndefined();
    expect(memo.get('project 99999')).toBe(100_001);
  });

  it('never holds more than two generations', () => {
    const memo = new RecentMemo<number, number>(100);
    for (let i = 0; i < 10_000; i++) {
      memo.set(i, i);
      expect(memo.size).toBeLessThanOrEqual(200);
    }
    memo.clear();
    expect(memo.size).toBe(0);
    expect(memo.get(9_999)).toBeUndefined();
  });
});
