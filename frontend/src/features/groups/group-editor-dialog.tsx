import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode, UndertakingGroupDto, UndertakingGroupInput } from '@rna/domain';
import { Dialog } from '../../components/dialog';
import { DialogActions } from '../../components/dialog-actions';
import { failsCheckDigit, isTaxCodeWellFormed, normaliseTaxCode } from '../../lib/domain-rules';
import {
  draftOf,
  groupInput,
  groupProblems,
  MAX_MEMBERS,
  MAX_NAME_LENGTH,
  MAX_NOTE_LENGTH,
  memberField,
  pasteMembers,
  type GroupDraft,
  type GroupProblem,
  type PasteOutcome,
} from './group-rules';

interface GroupEditorDialogProps {
  /** the group to edit, or null for a new one */
  group: UndertakingGroupDto | null;
  /** a user bound to one tax code may put only that code in a group (P001) */
  fixedTaxCode: string | null;
  /** saves the group; answers the server's refusal, or null once saved */
  onSave: (input: UndertakingGroupInput) => Promise<ErrorCode | null>;
  onClose: () => void;
}

const SHOWN_IGNORED = 5;

/**
 * Creates or edits a group: its name and its companies (a tax code and an optional note each), typed
 * one per row or pasted as a list. The rules are checked before sending; what the server still refuses
 * is told with its catalogue text.
 */
export function GroupEditorDialog({ group, fixedTaxCode, onSave, onClose }: GroupEditorDialogProps) {
  const { t } = useTranslation();
  const id = useId();
  const lastKey = useRef(0);
  const nextKey = () => ++lastKey.current;
  const [draft, setDraft] = useState<GroupDraft>(() => draftOf(group, nextKey));
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<ErrorCode | null>(null);
  const [pasteText, setPasteText] = useState('');
  const [pasted, setPasted] = useState<PasteOutcome | null>(null);

  // checked again on every change once a save was tried, so each message goes as soon as it is fixed
  const problems = submitted ? groupProblems(draft, fixedTaxCode) : [];
  const problemId = (field: string) => `${id}-problem-${field}`;
  const problemsOf = (field: string) => problems.filter((problem) => problem.field === field);
  const fieldAttributes = (field: string) =>
    problemsOf(field).length > 0
      ? { 'aria-invalid': true as const, 'aria-describedby': problemId(field) }
      : { 'aria-invalid': false as const };
  const filled = draft.members.filter((member) => member.taxCode.trim() !== '').length;

  const change = (next: GroupDraft) => {
    setDraft(next);
    setRefusal(null);
  };
  const setMember = (key: number, part: 'taxCode' | 'note', value: string) =>
    change({
      ...draft,
      members: draft.members.map((member) => (member.key === key ? { ...member, [part]: value } : member)),
    });
  const addRow = () =>
    change({ ...draft, members: [...draft.members, { key: nextKey(), taxCode: '', note: '' }] });
  const removeRow = (key: number) =>
    change({ ...draft, members: draft.members.filter((member) => member.key !== key) });

  const addPasted = () => {
    const outcome = pasteMembers(draft.members, pasteText, nextKey);
    change({ ...draft, members: outcome.members });
    setPasted(outcome);
    setPasteText('');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (groupProblems(draft, fixedTaxCode).length > 0) return;
    setBusy(true);
    const refused = await onSave(groupInput(draft));
    setBusy(false);
    setRefusal(refused);
  };

  const problemText = (problem: GroupProblem) => t(problem.key, problem.values);

  return (
    <Dialog
      title={group ? t('groups.editTitle', { name: group.name }) : t('groups.newTitle')}
      onClose={onClose}
      size="large"
    >
      <form className="group-editor" onSubmit={(event) => void submit(event)} noValidate>
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('groups.name')}</label>
          <input
            id={`${id}-name`}
            type="text"
            value={draft.name}
            maxLength={MAX_NAME_LENGTH}
            placeholder={t('groups.namePlaceholder')}
            onChange={(event) => change({ ...draft, name: event.target.value })}
            {...fieldAttributes('name')}
          />
          <ProblemList id={problemId('name')} problems={problemsOf('name')} text={problemText} />
        </div>

        <fieldset
          className="group-editor__members"
          aria-describedby={problemsOf('members').length > 0 ? problemId('members') : undefined}
        >
          <legend>{t('groups.members', { filled, max: MAX_MEMBERS })}</legend>
          <p className="field__hint">{t('groups.membersHint')}</p>
          <ol className="group-members">
            {draft.members.map((member, index) => {
              const field = memberField(member);
              const code = normaliseTaxCode(member.taxCode);
              const doubtful = isTaxCodeWellFormed(code) && failsCheckDigit(code);
              const row = index + 1;
              return (
                <li key={member.key} className="group-member">
                  <input
                    type="text"
                    className="group-member__code"
                    aria-label={t('groups.memberCode', { row })}
                    placeholder={t('groups.codePlaceholder')}
                    autoComplete="off"
                    spellCheck={false}
                    value={member.taxCode}
                    onChange={(event) =>
                      setMember(member.key, 'taxCode', event.target.value.replace(/\s+/g, '').toUpperCase())
                    }
                    {...fieldAttributes(field)}
                  />
                  <input
                    type="text"
                    className="group-member__note"
                    aria-label={t('groups.memberNote', { row })}
                    placeholder={t('groups.notePlaceholder')}
                    maxLength={MAX_NOTE_LENGTH}
                    value={member.note}
                    onChange={(event) => setMember(member.key, 'note', event.target.value)}
                  />
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={t('groups.removeMember', { row })}
                    onClick={() => removeRow(member.key)}
                  >
                    ×
                  </button>
                  {doubtful && (
                    <p className="group-member__warning">{t('groups.checkDigitFailed', { code })}</p>
                  )}
                  <ProblemList id={problemId(field)} problems={problemsOf(field)} text={problemText} />
                </li>
              );
            })}
          </ol>
          <ProblemList id={problemId('members')} problems={problemsOf('members')} text={problemText} />
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={draft.members.length >= MAX_MEMBERS}
            onClick={addRow}
          >
            {t('groups.addMember')}
          </button>
        </fieldset>

        <div className="field group-editor__paste">
          <label htmlFor={`${id}-paste`}>{t('groups.pasteLabel')}</label>
          <textarea
            id={`${id}-paste`}
            className="bulk-paste"
            rows={3}
            spellCheck={false}
            value={pasteText}
            onChange={(event) => setPasteText(event.target.value)}
          />
          <div>
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={pasteText.trim() === ''}
              onClick={addPasted}
            >
              {t('groups.pasteAdd')}
            </button>
          </div>
          {pasted && (
            <div role="status" className="field__hint">
              <p>{t('groups.pasteAdded', { count: pasted.added })}</p>
              {pasted.duplicates > 0 && <p>{t('groups.pasteDuplicates', { count: pasted.duplicates })}</p>}
              {pasted.overLimit > 0 && (
                <p>{t('groups.pasteOverLimit', { count: pasted.overLimit, max: MAX_MEMBERS })}</p>
              )}
              {pasted.ignored.length > 0 && (
                <p>
                  {t('groups.pasteIgnored', {
                    count: pasted.ignored.length,
                    items:
                      pasted.ignored.slice(0, SHOWN_IGNORED).join(', ') +
                      (pasted.ignored.length > SHOWN_IGNORED ? '…' : ''),
                  })}
                </p>
              )}
            </div>
          )}
        </div>

        {problems.length > 0 && (
          <p className="field__error" role="alert">
            {t('errors.I002')}
          </p>
        )}
        {refusal && (
          <p className="field__error" role="alert">
            {t(`errors.${refusal}`)}
          </p>
        )}
        <DialogActions
          onCancel={onClose}
          submitLabel={busy ? t('common.loading') : group ? t('common.save') : t('groups.create')}
          submitDisabled={busy}
        />
      </form>
    </Dialog>
  );
}

function ProblemList({
  id,
  problems,
  text,
}: {
  id: string;
  problems: GroupProblem[];
  text: (problem: GroupProblem) => string;
}) {
  if (problems.length === 0) return null;
  return (
    <div id={id} className="field__error">
      {problems.map((problem) => (
        <p key={problem.key}>{text(problem)}</p>
      ))}
    </div>
  );
}
