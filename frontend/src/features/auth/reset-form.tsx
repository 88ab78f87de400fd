import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ProblemText } from '../../components/problem-text';
import {
  EMPTY_PASSWORD_PAIR,
  PasswordPair,
  passwordPairProblem,
  type PasswordPairValue,
} from '../../components/password-pair';
import type { FieldProblem } from '../../lib/validation';

interface ResetFormProps {
  onSubmit: (newPassword: string) => void;
  busy?: boolean;
  serverProblem?: FieldProblem | null;
  done?: boolean;
}

export function ResetForm({ onSubmit, busy, serverProblem, done }: ResetFormProps) {
  const { t } = useTranslation();
  const [pair, setPair] = useState<PasswordPairValue>(EMPTY_PASSWORD_PAIR);
  const [problem, setProblem] = useState<FieldProblem | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = passwordPairProblem(pair);
    setProblem(found);
    if (!found) onSubmit(pair.password);
  };

  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h1>{t('reset.title')}</h1>
      {done ? (
        <p role="status">{t('reset.done')}</p>
      ) : (
        <>
          <PasswordPair
            ids={{ password: 'reset-password', confirm: 'reset-confirm' }}
            labels={{ password: t('reset.newPassword'), confirm: t('reset.confirmPassword') }}
            value={pair}
            onChange={setPair}
            problem={problem}
            problemId="reset-problem"
          />
          <ProblemText id="reset-problem" problem={problem ?? serverProblem ?? null} />
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {t('reset.submit')}
          </button>
        </>
      )}
      <Link to="/">{t('common.backToLogin')}</Link>
    </form>
  );
}
