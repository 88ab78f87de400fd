import type { InputHTMLAttributes, ReactNode } from 'react';

type InputAttributes = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'className'>;

interface FormFieldProps extends InputAttributes {
  id: string;
  label: string;
  value: string;
  /** receives the new text; left out for read-only fields */
  onChange?: (value: string) => void;
  /** an extra class on the wrapper, e.g. field--inline */
  fieldClassName?: string;
  /** shown after the input, e.g. a colour swatch */
  children?: ReactNode;
}

/** A labelled input: the label's htmlFor names the input, for screen readers and label-based lookups. */
export function FormField({
  id,
  label,
  value,
  onChange,
  fieldClassName,
  children,
  type = 'text',
  ...input
}: FormFieldProps) {
  return (
    <div className={fieldClassName ? `field ${fieldClassName}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        onChange={onChange && ((event) => onChange(event.target.value))}
        {...input}
      />
      {children}
    </div>
  );
}
