import { useTranslation } from 'react-i18next';
import { errorCodeOf } from '../lib/errors';

/** A list or figure that failed to load: what the spec calls the failure, and a way to try again. */
export function LoadError({ failure, compact }: { failure: LoadFailure; compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={`load-error${compact ? ' load-error--compact' : ''}`} role="alert">
      <span>{t(`errors.${errorCodeOf(failure.error)}`)}</span>
      <button type="button" className="button button--secondary button--small" onClick={failure.retry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** What a query hook gives that a list needs to say it failed (RTK Query's isError/error/refetch). */
export interface LoadFailure {
  error: unknown;
  retry: () => void;
}

/** The failure of a query result, or null while it loads (a retry included) or when it succeeded. */
export function failureOf(result: {
  isError: boolean;
  error?: unknown;
  refetch: () => unknown;
}): LoadFailure | null {
  return result.isError ? { error: result.error, retry: () => void result.refetch() } : null;
}
