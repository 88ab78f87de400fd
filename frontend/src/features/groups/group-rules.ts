import { UNDERTAKING_GROUP_LIMITS, type UndertakingGroupDto, type UndertakingGroupInput } from '@rna/domain';
import { isTaxCodeWellFormed, normaliseTaxCode, parseTaxCodes } from '../../lib/domain-rules';

/** The server's limits (I001, I002), from the contract: groups per user, companies per group, name and note lengths. */
export const MAX_GROUPS = UNDERTAKING_GROUP_LIMITS.groups;
export const MAX_MEMBERS = UNDERTAKING_GROUP_LIMITS.members;
export const MAX_NAME_LENGTH = UNDERTAKING_GROUP_LIMITS.name;
export const MAX_NOTE_LENGTH = UNDERTAKING_GROUP_LIMITS.note;

/** One row of the editor; `key` keeps React's rows apart while codes are typed. */
export interface MemberDraft {
  key: number;
  taxCode: string;
  note: string;
}

export interface GroupDraft {
  name: string;
  members: MemberDraft[];
}

/**
 * Why the group cannot be saved yet: an i18n key with its values, and the field it is about ('name',
 * 'members', or the row's key as `member-<key>`), which the editor marks and points at the message.
 */
export interface GroupProblem {
  key: string;
  field: string;
  values?: Record<string, string | number>;
}

export const memberField = (member: Pick<MemberDraft, 'key'>): string => `member-${member.key}`;

const isBlank = (member: MemberDraft) => member.taxCode.trim() === '' && member.note.trim() === '';

/**
 * The problems of a draft, in the order of the form (empty rows are left out, not reported): a name of
 * 1 to 100 characters; 1 to 100 companies; each a well-formed code (11 to 16 letters and digits) met
 * once, with a note of at most 200 characters; for a user with a fixed tax code, only that code (P001).
 */
export function groupProblems(draft: GroupDraft, fixedTaxCode?: string | null): GroupProblem[] {
  const problems: GroupProblem[] = [];
  const name = draft.name.trim();
  if (name === '') problems.push({ key: 'groups.nameRequired', field: 'name' });
  else if (name.length > MAX_NAME_LENGTH) {
    problems.push({ key: 'groups.nameTooLong', field: 'name', values: { max: MAX_NAME_LENGTH } });
  }
  const members = draft.members.filter((member) => !isBlank(member));
  if (members.length === 0) problems.push({ key: 'groups.membersRequired', field: 'members' });
  else if (members.length > MAX_MEMBERS) {
    problems.push({ key: 'groups.tooManyMembers', field: 'members', values: { max: MAX_MEMBERS } });
  }
  const seen = new Set<string>();
  const fixed = fixedTaxCode ? normaliseTaxCode(fixedTaxCode) : null;
  members.forEach((member, index) => {
    const field = memberField(member);
    const code = normaliseTaxCode(member.taxCode);
    const row = index + 1;
    if (code === '') problems.push({ key: 'groups.codeRequired', field, values: { row } });
    else if (!isTaxCodeWellFormed(code))
      problems.push({ key: 'groups.codeMalformed', field, values: { code } });
    else if (seen.has(code)) problems.push({ key: 'groups.codeDuplicate', field, values: { code } });
    else if (fixed && code !== fixed)
      problems.push({ key: 'groups.codeNotAllowed', field, values: { code } });
    if (member.note.trim().length > MAX_NOTE_LENGTH) {
      problems.push({ key: 'groups.noteTooLong', field, values: { row, max: MAX_NOTE_LENGTH } });
    }
    seen.add(code);
  });
  return problems;
}

/** The body to send: the name trimmed, the codes normalised, empty rows and empty notes left out. */
export function groupInput(draft: GroupDraft): UndertakingGroupInput {
  return {
    name: draft.name.trim(),
    members: draft.members
      .filter((member) => !isBlank(member))
      .map((member) => {
        const note = member.note.trim();
        return { taxCode: normaliseTaxCode(member.taxCode), ...(note ? { note } : {}) };
      }),
  };
}

/** What pasting a list into the editor did: the rows after it, and what was left out and why. */
export interface PasteOutcome {
  members: MemberDraft[];
  added: number;
  /** pieces that are not tax codes, as written */
  ignored: string[];
  /** codes already in the group */
  duplicates: number;
  /** codes beyond the 100 companies a group may hold */
  overLimit: number;
}

/**
 * A pasted list (new lines, commas, semicolons, tabs, spaces) appended as rows: the empty rows are
 * filled first, codes already there are skipped, and no more than 100 companies are kept.
 */
export function pasteMembers(members: MemberDraft[], text: string, nextKey: () => number): PasteOutcome {
  const list = parseTaxCodes(text);
  const present = new Set(members.map((member) => normaliseTaxCode(member.taxCode)).filter(Boolean));
  const fresh = list.codes.filter((code) => !present.has(code));
  const kept = members.filter((member) => !isBlank(member));
  const room = Math.max(0, MAX_MEMBERS - kept.length);
  const added = fresh.slice(0, room);
  return {
    members: [...kept, ...added.map((taxCode) => ({ key: nextKey(), taxCode, note: '' }))],
    added: added.length,
    ignored: list.malformed,
    duplicates: list.codes.length - fresh.length,
    overLimit: fresh.length - added.length,
  };
}

/** A group as the editor starts from it: its rows, or one empty row for a new group. */
export function draftOf(group: UndertakingGroupDto | null, nextKey: () => number): GroupDraft {
  if (!group) return { name: '', members: [{ key: nextKey(), taxCode: '', note: '' }] };
  return {
    name: group.name,
    members: group.members.map((member) => ({ key: nextKey(), taxCode: member.taxCode, note: member.note })),
  };
}

/** The list on screen: by name, as Italian sorts it. */
export function sortGroups(groups: readonly UndertakingGroupDto[]): UndertakingGroupDto[] {
  return [...groups].sort((a, b) => a.name.localeCompare(b.name, 'it', { sensitivity: 'base' }));
}
