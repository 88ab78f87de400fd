import { copiesOlderThan } from './gridfs-blob-store';

const copy = (id: string) => ({ _id: { id, equals: (other: unknown) => other === id } });

describe('GridFS copies a writer deletes', () => {
  it('are only those older than its own: two writers at once leave the newer copy, never none', () => {
    // newest first, as every process sees them: b's copy is newer than a's
    const copies = [copy('b1'), copy('a1'), copy('old')];
    const byA = copiesOlderThan(copies, 'a1').map((c) => c._id.id);
    const byB = copiesOlderThan(copies, 'b1').map((c) => c._id.id);
    expect(byA).toEqual(['old']);
    expect(byB).toEqual(['a1', 'old']);
    const left = copies.filter((c) => !byA.includes(c._id.id) && !byB.includes(c._id.id));
    expect(left.map((c) => c._id.id)).toEqual(['b1']);
  });

  it('are none when its own copy is gone (deleted meanwhile)', () => {
    expect(copiesOlderThan([copy('b1'), copy('old')], 'a1')).toEqual([]);
  });
});
