import {
  draftOf,
  groupInput,
  groupProblems,
  MAX_MEMBERS,
  pasteMembers,
  sortGroups,
  type MemberDraft,
} from './group-rules';

const ALFA = '01234567897';
const BETA = 'RSSMRA80A01H501U';

function keys() {
  let key = 0;
  return () => ++key;
}

const row = (key: number, taxCode: string, note = ''): MemberDraft => ({ key, taxCode, note });

describe('a group’s problems', () => {
  it('none for a name and well-formed distinct codes; empty rows are left out', () => {
    const draft = {
      name: ' Gruppo Alfa ',
      members: [row(1, ALFA), row(2, ''), row(3, ' rssmra80a01h501u ')],
    };
    expect(groupProblems(draft)).toEqual([]);
    expect(groupInput(draft)).toEqual({
      name: 'Gruppo Alfa',
      members: [{ taxCode: ALFA }, { taxCode: BETA }],
    });
  });

  it('a missing name, no companies', () => {
    expect(groupProblems({ name: '  ', members: [row(1, '')] }).map((p) => p.key)).toEqual([
      'groups.nameRequired',
      'groups.membersRequired',
    ]);
  });

  it('a name over 100 characters, more than 100 companies', () => {
    const members = Array.from({ length: MAX_MEMBERS + 1 }, (_, i) => row(i, String(10_000_000_000 + i)));
    expect(groupProblems({ name: 'x'.repeat(101), members }).map((p) => p.key)).toEqual([
      'groups.nameTooLong',
      'groups.tooManyMembers',
    ]);
  });

  it('each row: a malformed or repeated code, a note without a code, a note over 200 characters', () => {
    const problems = groupProblems({
      name: 'G',
      members: [
        row(1, ALFA),
        row(2, '123'),
        row(3, ALFA.toLowerCase()),
        row(4, '', 'nota'),
        row(5, BETA, 'n'.repeat(201)),
      ],
    });
    expect(problems).toEqual([
      { key: 'groups.codeMalformed', field: 'member-2', values: { code: '123' } },
      { key: 'groups.codeDuplicate', field: 'member-3', values: { code: ALFA } },
      { key: 'groups.codeRequired', field: 'member-4', values: { row: 4 } },
      { key: 'groups.noteTooLong', field: 'member-5', values: { row: 5, max: 200 } },
    ]);
  });

  it('for a user with a fixed tax code, any other code (P001)', () => {
    expect(groupProblems({ name: 'G', members: [row(1, ALFA), row(2, BETA)] }, ALFA)).toEqual([
      { key: 'groups.codeNotAllowed', field: 'member-2', values: { code: BETA } },
    ]);
  });

  it('keeps a note trimmed', () => {
    expect(groupInput({ name: 'G', members: [row(1, ALFA, ' controllata al 60% ')] }).members).toEqual([
      { taxCode: ALFA, note: 'controllata al 60%' },
    ]);
  });
});

describe('pasting a list into the editor', () => {
  it('fills the rows, skips codes already there and says what it ignored', () => {
    const next = keys();
    const outcome = pasteMembers([row(100, ALFA), row(101, '')], `${ALFA}\n${BETA}; ciao, 00116594550`, next);
    expect(outcome.members.map((m) => m.taxCode)).toEqual([ALFA, BETA, '00116594550']);
    expect(outcome).toMatchObject({ added: 2, ignored: ['ciao'], duplicates: 1, overLimit: 0 });
  });

  it('keeps no more than 100 companies', () => {
    const next = keys();
    const members = Array.from({ length: 99 }, (_, i) => row(1000 + i, String(10_000_000_000 + i)));
    const outcome = pasteMembers(members, `${ALFA} ${BETA}`, next);
    expect(outcome.members).toHaveLength(MAX_MEMBERS);
    expect(outcome).toMatchObject({ added: 1, overLimit: 1 });
  });
});

describe('the editor’s start and the list’s order', () => {
  it('starts a new group with one empty row, an existing one with its rows', () => {
    expect(draftOf(null, keys())).toEqual({ name: '', members: [row(1, '')] });
    const group = {
      id: 'g1',
      name: 'Alfa',
      members: [{ taxCode: ALFA, note: 'capogruppo' }],
      createdAt: 0,
      updatedAt: 0,
    };
    expect(draftOf(group, keys())).toEqual({ name: 'Alfa', members: [row(1, ALFA, 'capogruppo')] });
  });

  it('sorts by name as Italian does, case aside', () => {
    const named = (name: string) => ({ id: name, name, members: [], createdAt: 0, updatedAt: 0 });
    expect(sortGroups([named('beta'), named('Alfa'), named('Àncora')]).map((g) => g.name)).toEqual([
      'Alfa',
      'Àncora',
      'beta',
    ]);
  });
});
