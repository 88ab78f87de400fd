import { Navigate, useSearchParams } from 'react-router-dom';
import { errorCodeOf } from '../../lib/errors';
import { useResetPasswordMutation } from './auth-api';
import { ResetForm } from './reset-form';

export default function ResetPage() {
  const [params] = useSearchParams();
  const code = params.get('code');
  const [reset, { isLoading, error, isSuccess }] = useResetPasswordMutation();
  // without a code there is nothing to reset (SPEC §2)
  if (!code) return <Navigate to="/" replace />;
  return (
    <ResetForm
      busy={isLoading}
      done={isSuccess}
      serverProblem={error ? { code: errorCodeOf(error) } : null}
      onSubmit={(newPassword) => void reset({ code, newPassword })}
    />
  );
}
