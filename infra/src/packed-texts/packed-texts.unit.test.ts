import { eachTextBytes, packTexts, TextPacker, unpackTexts } from './packed-texts';

const TEXTS = [
  '{"titolo":"Attività produttive"}',
  '',
  'città € 100 — “virgolette”',
  'emoji 🇮🇹 and a pair: 𝄞',
  'x'.repeat(5000),
];

describe('packed texts (how aid messages cross threads)', () => {
  it('gives back every text, accents, euro signs and characters outside the basic plane included', () => {
    const packed = packTexts(TEXTS);
    expect(unpackTexts(packed)).toEqual(TEXTS);
    expect(packed.lengths).toEqual(TEXTS.map((text) => Buffer.byteLength(text, 'utf8')));
    expect(packed.bytes.length).toBe(packed.lengths.reduce((a, b) => a + b, 0));
  });

  it('grows past its first buffer, joins the parts of one text, and starts afresh after each take', () => {
    const packer = new TextPacker(100);
    const aid = `{"città":"${'Forlì'.repeat(8)}"}`;
    // the buffer grows between two parts of one text
    packer.add('{"type":"AidRecorded","aid":', aid, '}');
    for (const text of TEXTS) packer.add(text);
    const first = packer.take()!;
    expect(unpackTexts(first)).toEqual([`{"type":"AidRecorded","aid":${aid}}`, ...TEXTS]);
    expect(packer.take()).toBeNull();
    packer.addBytes(first.bytes.subarray(0, first.lengths[0]));
    packer.add('ultimo');
    const second = packer.take()!;
    expect(unpackTexts(second)).toEqual([`{"type":"AidRecorded","aid":${aid}}`, 'ultimo']);
    // each batch's buffer is its own and exactly its size: it can be handed to another thread
    expect(second.bytes.byteOffset).toBe(0);
    expect(second.bytes.buffer.byteLength).toBe(second.bytes.length);
    expect(first.bytes.buffer).not.toBe(second.bytes.buffer);
  });

  it('packs again texts cut from one batch, side by side or apart, in a buffer of their own', () => {
    const batch = packTexts(TEXTS);
    const views = [...eachTextBytes(batch)];
    for (const picked of [
      [1, 2, 3],
      [0, 2, 4],
      [4, 3],
    ]) {
      const again = packTexts(picked.map((i) => views[i]!));
      expect(unpackTexts(again)).toEqual(picked.map((i) => TEXTS[i]));
      // handed to another thread: it must not be the batch's buffer, nor hold more than its texts
      expect(again.bytes.buffer).not.toBe(batch.bytes.buffer);
      expect(again.bytes.byteOffset).toBe(0);
      expect(again.bytes.buffer.byteLength).toBe(again.bytes.length);
    }
    expect(unpackTexts(packTexts([views[2]!, 'fra i byte', views[3]!]))).toEqual([
      TEXTS[2],
      'fra i byte',
      TEXTS[3],
    ]);
  });
});
