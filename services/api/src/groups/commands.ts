/**
 * Groups of companies counted as one undertaking (impresa unica, Reg. 2023/2831 art. 2(2)): written as
 * events on the owner's stream `user-<id>`, decided there (the number of groups cannot be passed by
 * parallel requests), listed from the read model. A client with a fixed tax code may group only that
 * code, as it may search only that code.
 */
import { randomUUID } from 'node:crypto';
import {
  assertOnlyFixedTaxCode,
  DomainError,
  isWellFormedTaxCode,
  normalizeTaxCode,
  printableText,
  streams,
  UNDERTAKING_GROUP_LIMITS,
  type UndertakingGroupDto,
  type UndertakingGroupInput,
  type UserEvent,
} from '@rna/domain';
import { ConcurrencyError, type DocumentStore, type EventStore } from '@rna/infra';
import {
  groupDto,
  UNDERTAKING_GROUPS_COLLECTION,
  type UndertakingGroupReadModel,
} from '@rna/read-models/groups';
import { readUserDecisionState } from '../alerts/variation-alerts';

/** Groups a user may keep, and companies a group may hold. */
export const MAX_GROUPS = UNDERTAKING_GROUP_LIMITS.groups;
export const MAX_GROUP_MEMBERS = UNDERTAKING_GROUP_LIMITS.members;
export const MAX_GROUP_NAME = UNDERTAKING_GROUP_LIMITS.name;
export const MAX_MEMBER_NOTE = UNDERTAKING_GROUP_LIMITS.note;

export interface GroupOwner {
  userId: string;
  fixedTaxCode: string | null;
}

const groups = (documents: DocumentStore) =>
  documents.collection<UndertakingGroupReadModel>(UNDERTAKING_GROUPS_COLLECTION);

/** The group as it will be kept: I002 for a name or members out of bounds or repeated, T002 for a malformed code. */
export function cleanGroup(input: UndertakingGroupInput): {
  name: string;
  members: { taxCode: string; note: string }[];
} {
  const name = printableText(input.name);
  if (name === '' || name.length > MAX_GROUP_NAME)
    throw new DomainError('I002', 'Nome dell’impresa unica mancante o troppo lungo');
  if (input.members.length === 0 || input.members.length > MAX_GROUP_MEMBERS)
    throw new DomainError('I002', `Un’impresa unica comprende da 1 a ${MAX_GROUP_MEMBERS} imprese`);
  const seen = new Set<string>();
  const members = input.members.map((member) => {
    const taxCode = normalizeTaxCode(member.taxCode);
    if (!isWellFormedTaxCode(taxCode)) throw new DomainError('T002');
    if (seen.has(taxCode)) throw new DomainError('I002', `Codice fiscale ripetuto: ${taxCode}`);
    seen.add(taxCode);
    const note = printableText(member.note ?? '');
    if (note.length > MAX_MEMBER_NOTE) throw new DomainError('I002', 'Nota troppo lunga');
    return { taxCode, note };
  });
  return { name, members };
}

export async function listGroups(documents: DocumentStore, userId: string): Promise<UndertakingGroupDto[]> {
  const found = await groups(documents).find(
    { userId, deleted: false },
    { sortBy: 'createdAt', order: 'asc' },
  );
  return found.map(groupDto);
}

/** The owner's group (I003 for another user's, a deleted or an unknown one). */
export async function findOwnGroup(
  documents: DocumentStore,
  userId: string,
  groupId: string,
): Promise<UndertakingGroupDto> {
  const group = await groups(documents).get(groupId);
  if (!group || group.deleted || group.userId !== userId) throw new DomainError('I003');
  return groupDto(group);
}

/**
 * Creates (groupId null) or replaces a group, decided on the owner's stream: I001 past MAX_GROUPS,
 * I003 for a group that is not the owner's.
 */
export async function saveGroup(
  deps: { eventStore: EventStore; clock: () => Date },
  owner: GroupOwner,
  groupId: string | null,
  input: UndertakingGroupInput,
): Promise<{ groupId: string; at: string }> {
  const { name, members } = cleanGroup(input);
  assertOnlyFixedTaxCode(
    owner.fixedTaxCode,
    members.map((member) => member.taxCode),
  );
  const id = groupId ?? randomUUID();
  for (;;) {
    const { version, state } = await readUserDecisionState(deps.eventStore, owner.userId);
    const own = state.groupIds ?? [];
    if (groupId !== null && !own.includes(groupId)) throw new DomainError('I003');
    if (groupId === null && own.length >= MAX_GROUPS) throw new DomainError('I001');
    const at = deps.clock().toISOString();
    const event: UserEvent = {
      type: 'UndertakingGroupSaved',
      data: { userId: owner.userId, groupId: id, name, members, at },
    };
    try {
      await deps.eventStore.appendToStream(streams.user(owner.userId), [event], { expectedVersion: version });
      return { groupId: id, at };
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }
}

/** Deletes one of the owner's groups (I003 otherwise). */
export async function deleteGroup(
  deps: { eventStore: EventStore; clock: () => Date },
  owner: GroupOwner,
  groupId: string,
): Promise<void> {
  for (;;) {
    const { version, state } = await readUserDecisionState(deps.eventStore, owner.userId);
    if (!(state.groupIds ?? []).includes(groupId)) throw new DomainError('I003');
    const event: UserEvent = {
      type: 'UndertakingGroupDeleted',
      data: { userId: owner.userId, groupId, at: deps.clock().toISOString() },
    };
    try {
      await deps.eventStore.appendToStream(streams.user(owner.userId), [event], { expectedVersion: version });
      return;
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }
}
