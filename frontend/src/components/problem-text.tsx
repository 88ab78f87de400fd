import { useTranslation } from 'react-i18next';
import type { FieldProblem } from '../lib/validation';

export function ProblemText({ problem, id }: { problem: FieldProblem | null; id?: string }) {
  const { t } = useTranslation();
  if (!problem) return null;
  return (
    <p id={id} className="field__error" role="alert">
      {'code' in problem ? t(`errors.${problem.code}`) : t(problem.key, { min: 8 })}
    </p>
  );
}
