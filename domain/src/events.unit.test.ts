import { aidJsonOfAidRecorded, encodeAidRecorded, originOfAidMessage, type AidMessage } from './events';

describe('AidRecorded messages encoded once', () => {
  const aid = {
    idComponenteAiuto: '1',
    denominazioneBeneficiario: 'Rossi "e figli" S.r.l.',
    elementoDiAiutoCents: 5,
  };

  it('are the same text as the message encoded whole, and give the aid back', () => {
    const whole = JSON.stringify({ type: 'AidRecorded', aid });
    expect(encodeAidRecorded(JSON.stringify(aid))).toBe(whole);
    expect(aidJsonOfAidRecorded(whole)).toBe(JSON.stringify(aid));
  });

  it('do not mistake any other message for an aid', () => {
    const marker: AidMessage = {
      type: 'SourceFileImported',
      sourceFile: '2024_01',
      importId: 'i',
      runId: 'r',
      records: 1,
    };
    expect(aidJsonOfAidRecorded(JSON.stringify(marker))).toBeNull();
    expect(aidJsonOfAidRecorded(JSON.stringify({ aid, type: 'AidRecorded' }))).toBeNull();
  });
});

describe('the origin of an aid message (the file a set-aside record is charged to)', () => {
  it("is an aid's own file and import, and a marker's or withdrawal's", () => {
    const aid = { idComponenteAiuto: '1', sourceFile: '2024_01_001', importId: '000042-a' };
    expect(originOfAidMessage({ type: 'AidRecorded', aid })).toStrictEqual({
      sourceFile: '2024_01_001',
      importId: '000042-a',
    });
    expect(
      originOfAidMessage({ type: 'SourceFileImported', sourceFile: '2024_02', importId: 'x', runId: 'r' }),
    ).toStrictEqual({ sourceFile: '2024_02', importId: 'x' });
    expect(
      originOfAidMessage({ type: 'SourceFileWithdrawn', sourceFile: '2014_12', runId: 'r' }),
    ).toStrictEqual({
      sourceFile: '2014_12',
    });
  });

  it('is only what the value says, whatever it holds', () => {
    for (const nothing of [null, undefined, 'text', 42, true, []])
      expect(originOfAidMessage(nothing)).toStrictEqual({});
    // an AidRecorded without an aid object is read as the message itself, never as a crash
    expect(originOfAidMessage({ type: 'AidRecorded', aid: null, sourceFile: 'f' })).toStrictEqual({
      sourceFile: 'f',
    });
    expect(originOfAidMessage({ type: 'AidRecorded', aid: 'no', sourceFile: 'f' })).toStrictEqual({
      sourceFile: 'f',
    });
    // an aid's fields, not the envelope's, when the aid is there
    expect(
      originOfAidMessage({
        type: 'AidRecorded',
        aid: { sourceFile: 'inner' },
        sourceFile: 'outer',
        importId: 7,
      }),
    ).toStrictEqual({ sourceFile: 'inner' });
    // another type's aid field is not read
    expect(
      originOfAidMessage({ type: 'AidWithdrawn', aid: { sourceFile: 'inner' }, sourceFile: 'outer' }),
    ).toStrictEqual({
      sourceFile: 'outer',
    });
    expect(originOfAidMessage({ sourceFile: 3, importId: 'i' })).toStrictEqual({ importId: 'i' });
  });
});
