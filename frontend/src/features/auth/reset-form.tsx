import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ProblemText } from '../../components/problem-text';
import { validateNewPassword, type FieldProblem } from '../../lib/validation';

interface ResetFormProps {
  onSubmit: (newPassword: string) => void;
  busy?: boolean;
  serverProblem?: FieldProblem | null;
  done?: boolean;
}

export function ResetForm({ onSubmit, busy, serverProblem, done }: ResetFormProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<FieldProblem | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateNewPassword(password, confirm);
    setProblem(found);
    if (!found) onSubmit(password);
  };

  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h1>{t('reset.title')}</h1>
      {done ? (
        <p role="status">{t('reset.done')}</p>
      ) : (
        <>
          <div className="field">
            <label htmlFor="reset-password">{t('reset.newPassword')}</label>
            <input
              id="reset-password"
              type="password"
              autoComplete="new-password"
              minLength={8}
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="reset-confirm">{t('reset.confirmPassword')}</label>
            <input
              id="reset-confirm"
              type="password"
              autoComplete="new-password"
              minLength={8}
              required
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
            />
          </div>
          <ProblemText problem={problem ?? serverProblem ?? null} />
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {t('reset.submit')}
          </button>
        </>
      )}
      <Link to="/">{t('common.backToLogin')}</Link>
    </form>
  );
}
