import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * A process shaped like the sync's main thread: ~50 MB kept, and batches that outlive a young
 * collection before they are dropped. Counts its full collections (needs infra's build).
 */
function fullCollections(grown: boolean): number {
  const module = path.join(__dirname, '..', '..', 'dist', 'config', 'heap-growth.js');
  const script = `
    if (${grown}) require(${JSON.stringify(module)}).growHeapForBulkWork();
    const { PerformanceObserver, constants } = require('node:perf_hooks');
    let full = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full += 1;
    }).observe({ entryTypes: ['gc'] });
    const kept = [];
    for (let i = 0; i < 400000; i++) kept.push({ id: i, text: 'aiuto ' + i + ' '.repeat(64) });
    // batches of messages handed on across turns of the event loop, the last few kept in flight
    const inFlight = [];
    let batch = 0;
    const next = () => {
      if (batch === 1000) return setTimeout(() => process.stdout.write(full + ' ' + kept.length), 100);
      const messages = [];
      for (let i = 0; i < 2000; i++) messages.push({ offset: batch * 2000 + i, json: JSON.stringify({ batch, i, pad: 'x'.repeat(100) }) });
      batch += 1;
      inFlight.push(messages);
      if (inFlight.length > 8) inFlight.shift();
      setImmediate(next);
    };
    next();
  `;
  const out = execFileSync(process.execPath, ['--max-old-space-size=512', '-e', script], {
    encoding: 'utf8',
  });
  return Number(out.split(' ')[0]);
}

describe('the heap growth of the bulk processes', () => {
  it('lets a heap with tens of MB kept grow further before it is marked again: fewer full collections', () => {
    const asV8Sets = fullCollections(false);
    const grown = fullCollections(true);
    expect(asV8Sets).toBeGreaterThan(6);
    expect(grown).toBeLessThan(asV8Sets * 0.7);
  });
});
