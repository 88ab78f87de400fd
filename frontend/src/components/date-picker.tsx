import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { daysInMonth, formatDateInput, parseDateInput, yearOptions } from './date-input';

interface DatePickerProps {
  label: string;
  value: Date | null;
  onChange: (date: Date | null) => void;
  withTime?: boolean;
  required?: boolean;
}

/** Typed dd-mm-yyyy [hh:mm] plus day / month / year selectors that stay in sync with the text. */
export function DatePicker({ label, value, onChange, withTime = false, required }: DatePickerProps) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(value ? formatDateInput(value, withTime) : '');
  const [invalid, setInvalid] = useState(false);

  useEffect(() => {
    setText(value ? formatDateInput(value, withTime) : '');
  }, [value, withTime]);

  const commitText = (next: string) => {
    setText(next);
    if (next.trim() === '') {
      setInvalid(false);
      onChange(null);
      return;
    }
    const parsed = parseDateInput(next);
    setInvalid(parsed === null);
    // invalid text clears the date (SPEC §5)
    onChange(parsed);
  };

  const base = value ?? new Date(new Date().setHours(12, 0, 0, 0));
  const setPart = (part: 'day' | 'month' | 'year', n: number) => {
    const year = part === 'year' ? n : base.getFullYear();
    const month = part === 'month' ? n : base.getMonth() + 1;
    const day = Math.min(part === 'day' ? n : base.getDate(), daysInMonth(year, month));
    setInvalid(false);
    onChange(new Date(year, month - 1, day, base.getHours(), base.getMinutes()));
  };
  const years = yearOptions();
  if (value && !years.includes(value.getFullYear())) years.unshift(value.getFullYear());

  return (
    <div className="field date-picker">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        placeholder={withTime ? t('datePicker.placeholderTime') : t('datePicker.placeholder')}
        value={text}
        required={required}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={(e) => commitText(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && commitText((e.target as HTMLInputElement).value)}
      />
      <div className="date-picker__selects">
        <select
          aria-label={t('datePicker.day')}
          value={value ? value.getDate() : ''}
          onChange={(e) => setPart('day', Number(e.target.value))}
        >
          {!value && <option value="">--</option>}
          {Array.from({ length: daysInMonth(base.getFullYear(), base.getMonth() + 1) }, (_, i) => (
            <option key={i + 1} value={i + 1}>
              {i + 1}
            </option>
          ))}
        </select>
        <select
          aria-label={t('datePicker.month')}
          value={value ? value.getMonth() + 1 : ''}
          onChange={(e) => setPart('month', Number(e.target.value))}
        >
          {!value && <option value="">--</option>}
          {Array.from({ length: 12 }, (_, i) => (
            <option key={i + 1} value={i + 1}>
              {String(i + 1).padStart(2, '0')}
            </option>
          ))}
        </select>
        <select
          aria-label={t('datePicker.year')}
          value={value ? value.getFullYear() : ''}
          onChange={(e) => setPart('year', Number(e.target.value))}
        >
          {!value && <option value="">--</option>}
          {years.map((year) => (
            <option key={year} value={year}>
              {year}
            </option>
          ))}
        </select>
      </div>
      {invalid && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {t('datePicker.invalid')}
        </p>
      )}
    </div>
  );
}
