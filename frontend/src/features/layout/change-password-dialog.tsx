import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';
import { DialogActions } from '../../components/dialog-actions';
import { FormField } from '../../components/form-field';
import {
  EMPTY_PASSWORD_PAIR,
  PasswordPair,
  passwordPairProblem,
  type PasswordPairValue,
} from '../../components/password-pair';
import { ProblemText } from '../../components/problem-text';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { showError, showSuccess } from '../../lib/session/status-slice';
import { problemAttributes, type FieldProblem } from '../../lib/validation';
import { useChangePasswordMutation } from './change-password-api';

export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [current, setCurrent] = useState('');
  const [pair, setPair] = useState<PasswordPairValue>(EMPTY_PASSWORD_PAIR);
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const [change, { isLoading }] = useChangePasswordMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: FieldProblem | null = !current
      ? { key: 'validation.passwordRequired', field: 'current' }
      : passwordPairProblem(pair);
    setProblem(found);
    if (found) return;
    const result = await change({ password: current, newPassword: pair.password });
    if (result.error) {
      dispatch(showError(errorCodeOf(result.error)));
      return;
    }
    dispatch(showSuccess('clients.changePasswordSuccess'));
    onClose();
  };

  return (
    <Dialog title={t('changePassword.title')} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <FormField
          id="cp-current"
          label={t('changePassword.current')}
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onChange={setCurrent}
          {...problemAttributes(problem, 'current', 'cp-problem')}
        />
        <PasswordPair
          ids={{ password: 'cp-new', confirm: 'cp-confirm' }}
          labels={{ password: t('changePassword.new'), confirm: t('changePassword.confirm') }}
          value={pair}
          onChange={setPair}
          problem={problem}
          problemId="cp-problem"
        />
        <ProblemText id="cp-problem" problem={problem} />
        <DialogActions onCancel={onClose} submitLabel={t('common.save')} submitDisabled={isLoading} />
      </form>
    </Dialog>
  );
}
