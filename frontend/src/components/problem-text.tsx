import { useTranslation } from 'react-i18next';
import { MIN_PASSWORD_LENGTH } from '../lib/domain-rules';
import type { FieldProblem } from '../lib/validation';

/** A form's problem: a FieldProblem, or a bare i18n key as the dialogs' own rules return. */
export function ProblemText({ problem, id }: { problem: FieldProblem | string | null; id?: string }) {
  const { t } = useTranslation();
  if (!problem) return null;
  const text =
    typeof problem === 'string'
      ? t(problem)
      : 'code' in problem
        ? t(`errors.${problem.code}`)
        : t(problem.key, { min: MIN_PASSWORD_LENGTH });
  return (
    <p id={id} className="field__error" role="alert">
      {text}
    </p>
  );
}
