import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';
import { normaliseTaxCode } from '../../lib/domain-rules';
import { isEmail } from '../../lib/validation';

interface InviteDialogProps {
  busy?: boolean;
  onInvite: (body: { email: string; fixedTaxCode?: string }) => void;
  onClose: () => void;
}

export function InviteDialog({ busy, onInvite, onClose }: InviteDialogProps) {
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
        <div className="field">
          <label htmlFor="invite-email">{t('columns.email')}</label>
          <input
            id="invite-email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="invite-tax-code">{t('clients.fixedTaxCodeOptional')}</label>
          <input
            id="invite-tax-code"
            type="text"
            value={taxCode}
            onChange={(e) => setTaxCode(e.target.value.toUpperCase())}
          />
        </div>
        {problem && (
          <p className="field__error" role="alert">
            {t(problem)}
          </p>
        )}
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? t('common.loading') : t('clients.invite')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
