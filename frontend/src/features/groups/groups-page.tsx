import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ErrorCode, UndertakingGroupDto, UndertakingGroupInput } from '@rna/domain';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { failureOf, LoadError } from '../../components/load-error';
import { documentsUrl } from '../../components/search-form';
import { Spinner } from '../../components/spinner';
import { formatDateTime, formatInteger } from '../../lib/domain-rules';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { showError, showSuccess } from '../../lib/session/status-slice';
import { useUser } from '../../lib/session/use-user';
import { GroupEditorDialog } from './group-editor-dialog';
import { MAX_GROUPS, sortGroups } from './group-rules';
import {
  useCreateGroupMutation,
  useDeleteGroupMutation,
  useGetGroupsQuery,
  useUpdateGroupMutation,
} from './groups-api';

/** Companies shown on a group's card; the others are counted. */
const SHOWN_MEMBERS = 5;

/**
 * The user's groups of companies counted as one undertaking (impresa unica): list, create, edit,
 * delete, and search a group's codes together, with its de minimis headroom asked for the group.
 */
export default function GroupsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const groups = useGetGroupsQuery();
  const [createGroup] = useCreateGroupMutation();
  const [updateGroup] = useUpdateGroupMutation();
  const [deleteGroup, deleting] = useDeleteGroupMutation();
  /** the group in the editor: 'new', one of the list, or none */
  const [editing, setEditing] = useState<UndertakingGroupDto | 'new' | null>(null);
  const [removing, setRemoving] = useState<UndertakingGroupDto | null>(null);

  if (!user) return null;
  const list = sortGroups(groups.data ?? []);
  const full = list.length >= MAX_GROUPS;
  const failure = failureOf(groups);

  const save = async (input: UndertakingGroupInput): Promise<ErrorCode | null> => {
    const group = editing === 'new' ? null : editing;
    const result = group ? await updateGroup({ id: group.id, input }) : await createGroup(input);
    if (result.error) return errorCodeOf(result.error);
    setEditing(null);
    dispatch(showSuccess(group ? 'groups.saved' : 'groups.created'));
    return null;
  };

  const remove = async (group: UndertakingGroupDto) => {
    const result = await deleteGroup(group.id);
    setRemoving(null);
    if (result.error) dispatch(showError(errorCodeOf(result.error)));
    else dispatch(showSuccess('groups.deleted'));
  };

  const search = (group: UndertakingGroupDto) =>
    navigate(
      documentsUrl(
        { taxCodes: group.members.map((member) => member.taxCode), deMinimis: false, last3Years: false },
        group.id,
      ),
    );

  return (
    <div className="groups">
      <section className="hero">
        <div className="page-header">
          <h1>{t('groups.title')}</h1>
          <button
            type="button"
            className="button button--primary"
            disabled={full || !groups.isSuccess}
            onClick={() => setEditing('new')}
          >
            {t('groups.new')}
          </button>
        </div>
        <p className="muted">{t('groups.intro')}</p>
        {user.taxCode && <p className="note card">{t('groups.fixedTaxCode', { code: user.taxCode })}</p>}
        {groups.isSuccess && (
          <p className="groups__count">
            {t('groups.count', {
              count: list.length,
              formatted: formatInteger(list.length),
              max: MAX_GROUPS,
            })}
          </p>
        )}
        {full && (
          <p className="warning-note card" role="status">
            {t('errors.I001')}
          </p>
        )}
      </section>

      {groups.isLoading ? (
        <div className="page-loading">
          <Spinner label={t('common.loading')} />
        </div>
      ) : failure ? (
        <LoadError failure={failure} />
      ) : list.length === 0 ? (
        <p className="card muted">{t('groups.empty')}</p>
      ) : (
        <ul className="groups__list" aria-label={t('groups.listLabel')}>
          {list.map((group) => (
            <li key={group.id} className="card group-card">
              <h2 className="group-card__name">{group.name}</h2>
              <p className="muted group-card__meta">
                {t('groups.memberCount', { count: group.members.length })} ·{' '}
                {t('groups.updatedAt', { date: formatDateTime(group.updatedAt) })}
              </p>
              <ul className="group-card__members">
                {group.members.slice(0, SHOWN_MEMBERS).map((member) => (
                  <li key={member.taxCode}>
                    <span className="group-card__code">{member.taxCode}</span>
                    {member.note && <span className="muted"> · {member.note}</span>}
                  </li>
                ))}
                {group.members.length > SHOWN_MEMBERS && (
                  <li className="muted">
                    {t('groups.moreMembers', { count: group.members.length - SHOWN_MEMBERS })}
                  </li>
                )}
              </ul>
              <div className="group-card__actions">
                <button
                  type="button"
                  className="button button--primary button--small"
                  aria-label={t('groups.searchOf', { name: group.name })}
                  onClick={() => search(group)}
                >
                  {t('groups.search')}
                </button>
                <button
                  type="button"
                  className="button button--secondary button--small"
                  aria-label={t('groups.editOf', { name: group.name })}
                  onClick={() => setEditing(group)}
                >
                  {t('groups.edit')}
                </button>
                <button
                  type="button"
                  className="button button--ghost button--small"
                  aria-label={t('groups.deleteOf', { name: group.name })}
                  onClick={() => setRemoving(group)}
                >
                  {t('common.delete')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}

      {editing && (
        <GroupEditorDialog
          group={editing === 'new' ? null : editing}
          fixedTaxCode={user.taxCode ?? null}
          onSave={save}
          onClose={() => setEditing(null)}
        />
      )}
      {removing && (
        <ConfirmDialog
          title={t('groups.deleteTitle')}
          confirmLabel={t('common.delete')}
          danger
          busy={deleting.isLoading}
          onClose={() => setRemoving(null)}
          onConfirm={() => void remove(removing)}
        >
          {t('groups.deleteConfirm', { name: removing.name })}
        </ConfirmDialog>
      )}
    </div>
  );
}
