import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { showError, showSuccess } from '../../lib/session/status-slice';
import { useChangePasswordMutation } from './change-password-api';
import { ProblemText } from '../../components/problem-text';
import { validateNewPassword, type FieldProblem } from '../../lib/validation';

export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const [change, { isLoading }] = useChangePasswordMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = !current ? { key: 'validation.passwordRequired' } : validateNewPassword(password, confirm);
    setProblem(found);
    if (found) return;
    const result = await change({ password: current, newPassword: password });
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
        <div className="field">
          <label htmlFor="cp-current">{t('changePassword.current')}</label>
          <input
            id="cp-current"
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="cp-new">{t('changePassword.new')}</label>
          <input
            id="cp-new"
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="cp-confirm">{t('changePassword.confirm')}</label>
          <input
            id="cp-confirm"
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
        </div>
        <ProblemText problem={problem} />
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={isLoading}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
