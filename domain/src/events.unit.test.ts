import { aidJsonOfAidRecorded, encodeAidRecorded, type AidMessage } from './events';

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
