import { useId } from 'react';
import { useTranslation } from 'react-i18next';

interface SwitchProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  /** the visible words of the two states; «Sì» and «No» unless given */
  onText?: string;
  offText?: string;
}

/**
 * An on/off switch: a button with role="switch" and aria-checked, drawn as a sliding track, with the
 * state also written beside it, so that it is not mistaken for a checkbox and its state is not told by
 * position or colour alone.
 */
export function Switch({ label, checked, onChange, disabled, onText, offText }: SwitchProps) {
  const { t } = useTranslation();
  const id = useId();
  const stateText = checked ? (onText ?? t('common.on')) : (offText ?? t('common.off'));
  return (
    <div className="switch">
      <span id={`${id}-label`} className="switch__label">
        {label}
      </span>
      <button
        type="button"
        role="switch"
        className="switch__control"
        aria-checked={checked}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-state`}
        disabled={disabled}
        onClick={() => onChange(!checked)}
      >
        <span className="switch__track" aria-hidden="true">
          <span className="switch__thumb" />
        </span>
      </button>
      <span id={`${id}-state`} className={checked ? 'switch__state switch__state--on' : 'switch__state'}>
        {stateText}
      </span>
    </div>
  );
}
