import { eachTextBytes, packTexts } from '../packed-texts/packed-texts';
import { DecodedBatch, encodeBatch } from './stored-batch';

describe('a publish stored as one batch', () => {
  it('gives back each message’s key and JSON text exactly, whatever characters they hold', () => {
    const messages = [
      { key: 'RSSMRA80A01H501U', json: JSON.stringify({ titolo: 'Bando "Impresa 4.0"\nseconda fase' }) },
      { key: '', json: '""' },
      { key: 'chiave con, virgola e "virgolette"', json: JSON.stringify({ nome: 'Caffè 😀 𝔸 ü' }) },
      { key: 'file:OpenData_Aiuti_2024_01.xml', json: 'null' },
      { key: 'k', json: JSON.stringify('\ud800 solo') }, // JSON.stringify escapes the lone surrogate
    ];
    const decoded = new DecodedBatch(encodeBatch(messages));
    expect(decoded.count).toBe(messages.length);
    for (let i = 0; i < messages.length; i++) {
      expect(decoded.key(i)).toBe(messages[i]!.key);
      expect(decoded.json(i)).toBe(messages[i]!.json);
    }
  });

  it('keeps the texts as UTF-8 bytes, each cut at its own length in bytes', () => {
    const messages = [
      { key: 'a', json: JSON.stringify({ nome: 'Caffè 😀' }) },
      { key: 'b', json: JSON.stringify({ nome: '€' }) },
    ];
    const encoded = encodeBatch(messages);
    expect((encoded.values as Buffer).toString('utf8')).toBe(messages[0]!.json + messages[1]!.json);
    expect(JSON.parse(encoded.lengths)).toEqual(messages.map((m) => Buffer.byteLength(m.json)));
  });

  it('stores the messages of a packed batch (a sync’s aids) as they are, together or apart', () => {
    const texts = [
      JSON.stringify({ nome: 'Caffè 😀' }),
      JSON.stringify({ n: 2 }),
      JSON.stringify({ c: '€' }),
    ];
    const views = [...eachTextBytes(packTexts(texts))];
    for (const picked of [
      [0, 1, 2],
      [1, 2],
      [2, 0],
    ]) {
      const decoded = new DecodedBatch(encodeBatch(picked.map((i) => ({ key: `k${i}`, bytes: views[i]! }))));
      expect(picked.map((_, j) => [decoded.key(j), decoded.json(j)])).toEqual(
        picked.map((i) => [`k${i}`, texts[i]]),
      );
    }
  });

  it('reads a batch stored before blobs: one text, lengths in UTF-16 code units', () => {
    const texts = [JSON.stringify({ nome: 'Caffè 😀 𝔸' }), JSON.stringify({ n: 2 })];
    const decoded = new DecodedBatch({
      keys: JSON.stringify(['a', 'b']),
      lengths: JSON.stringify(texts.map((text) => text.length)),
      values: texts.join(''),
    });
    expect([decoded.json(0), decoded.json(1)]).toEqual(texts);
  });

  it('refuses a batch whose lengths do not cut its text, instead of handing out shifted messages', () => {
    const encoded = encodeBatch([
      { key: 'a', json: '{"n":1}' },
      { key: 'b', json: '{"n":2}' },
    ]);
    expect(() => new DecodedBatch({ ...encoded, lengths: '[7,6]' })).toThrow(/damaged/);
    expect(() => new DecodedBatch({ ...encoded, keys: '["a"]' })).toThrow(/damaged/);
  });
});
