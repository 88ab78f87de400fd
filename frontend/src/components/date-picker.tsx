import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateInput, parseDateInput } from './date-input';

interface DatePickerProps {
  label: string;
  value: Date | null;
  /** the parsed date, or null when the text is empty or not a date (SPEC §5); `text` is what was typed */
  onChange: (date: Date | null, text: string) => void;
  withTime?: boolean;
  required?: boolean;
}

/**
 * One typed dd-mm-yyyy [hh:mm] field. Text that is not a date stays as typed, marked invalid with its
 * message, while the value given to the form is null: the user corrects it rather than retyping it.
 */
export function DatePicker({ label, value, onChange, withTime = false, required }: DatePickerProps) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(value ? formatDateInput(value, withTime) : '');
  const [invalid, setInvalid] = useState(false);
  /** true after this field itself gave null for text that is not a date: that null must not blank it */
  const keepTyped = useRef(false);

  useEffect(() => {
    if (value === null && keepTyped.current) return;
    keepTyped.current = false;
    setText(value ? formatDateInput(value, withTime) : '');
    setInvalid(false);
  }, [value, withTime]);

  const commitText = (next: string) => {
    setText(next);
    if (next.trim() === '') {
      keepTyped.current = false;
      setInvalid(false);
      onChange(null, next);
      return;
    }
    const parsed = parseDateInput(next);
    keepTyped.current = parsed === null;
    setInvalid(parsed === null);
    // invalid text clears the date (SPEC §5), not the text
    onChange(parsed, next);
  };

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="field date-picker">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={withTime ? t('datePicker.placeholderTime') : t('datePicker.placeholder')}
        value={text}
        required={required}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${hintId} ${errorId}` : hintId}
        onChange={(e) => setText(e.target.value)}
        onBlur={(e) => commitText(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && commitText((e.target as HTMLInputElement).value)}
      />
      <span id={hintId} className="field__hint">
        {withTime ? t('datePicker.formatTime') : t('datePicker.format')}
      </span>
      {invalid && (
        <p id={errorId} className="field__error" role="alert">
          {t('datePicker.invalid')}
        </p>
      )}
    </div>
  );
}
