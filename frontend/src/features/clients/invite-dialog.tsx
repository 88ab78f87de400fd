import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';
import { DialogActions } from '../../components/dialog-actions';
import { FormField } from '../../components/form-field';
import { ProblemText } from '../../components/problem-text';
import { normaliseTaxCode } from '../../lib/domain-rules';
import { isEmail } from '../../lib/validation';

interface InviteDialogProps {
  busy?: boolean;
  onInvite: (body: { email: string; fixedTaxCode?: string }) => void;
  onClose: () => void;
  /** the invitation just sent: its code is shown here, this once, and nowhere else afterwards */
  invited?: { email: string; invitationCode: string } | null;
}

export function InviteDialog({ busy, onInvite, onClose, invited }: InviteDialogProps) {
  if (invited) return <InvitedNotice invited={invited} onClose={onClose} />;
  return <InviteForm busy={busy} onInvite={onInvite} onClose={onClose} />;
}

function InvitedNotice({
  invited,
  onClose,
}: {
  invited: { email: string; invitationCode: string };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('clients.invitedTitle')} onClose={onClose}>
      <p>{t('clients.invitedTo', { email: invited.email })}</p>
      <p className="invite-code">
        <code>{invited.invitationCode}</code>
      </p>
      <p>{t('clients.invitedOnce')}</p>
      <div className="dialog__actions">
        <button type="button" className="button button--primary" onClick={onClose}>
          {t('clients.invitedDone')}
        </button>
      </div>
    </Dialog>
  );
}

function InviteForm({ busy, onInvite, onClose }: Omit<InviteDialogProps, 'invited'>) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [taxCode, setTaxCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = !email.trim()
      ? 'validation.emailRequired'
      : !isEmail(email)
        ? 'validation.emailFormat'
        : null;
    setProblem(found);
    if (found) return;
    const code = normaliseTaxCode(taxCode);
    onInvite({ email: email.trim(), ...(code ? { fixedTaxCode: code } : {}) });
  };

  return (
    <Dialog title={t('clients.inviteTitle')} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <FormField
          id="invite-email"
          label={t('columns.email')}
          type="email"
          required
          value={email}
          onChange={setEmail}
        />
        <FormField
          id="invite-tax-code"
          label={t('clients.fixedTaxCodeOptional')}
          value={taxCode}
          onChange={(text) => setTaxCode(text.toUpperCase())}
        />
        <ProblemText problem={problem} />
        <DialogActions
          onCancel={onClose}
          submitLabel={busy ? t('common.loading') : t('clients.invite')}
          submitDisabled={busy}
        />
      </form>
    </Dialog>
  );
}
